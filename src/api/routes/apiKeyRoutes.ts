/**
 * Personal API keys: create (the secret is in this one response only), list (never the secrets),
 * revoke. Usage is not tracked, so `last_used_at` is null and `last_used_from_addr` empty.
 */
import type { ApiKeyCreateRequest } from '@neondatabase/api-client';
import { formatInstant } from '../../core/instant.js';
import { reject } from '../../domain/rejection.js';
import { SIMULATED_USER } from '../../domain/simulatedAccount.js';
import type { ApiKeyCreated } from '../../model/settingsEventTypes.js';
import type { ApiKeyState } from '../../model/state.js';
import { errorResponse } from '../apiResponse.js';
import type { Route } from '../route.js';
import { executed } from './responses.js';

/** POST /api_keys ({ key_name }) */
export const createApiKeyRoute: Route<ApiKeyCreateRequest> = {
  method: 'POST',
  pattern: '/api_keys',
  handle({ body, target }) {
    const name = body.key_name;
    const result = target.execute({ type: 'CreateApiKey', name });
    return executed(result, (events) => {
      const created = events.find((e): e is ApiKeyCreated => e.type === 'ApiKeyCreated');
      if (created === undefined) throw new Error('CreateApiKey produced no ApiKeyCreated');
      return {
        status: 200,
        body: {
          id: created.keyId,
          key: created.key,
          name: created.name,
          created_at: formatInstant(created.at),
          created_by: SIMULATED_USER.id,
        },
      };
    });
  },
};

/** GET /api_keys: the live keys, oldest first, without their secrets. */
export const listApiKeysRoute: Route = {
  method: 'GET',
  pattern: '/api_keys',
  handle({ target }) {
    const keys = Object.values(target.state.apiKeys ?? {}).filter((key) => !key.revoked);
    return {
      status: 200,
      body: keys.map((key) => ({
        ...keyRecord(key),
        created_by: {
          id: SIMULATED_USER.id,
          name: SIMULATED_USER.name,
          image: SIMULATED_USER.image,
        },
      })),
    };
  },
};

/** DELETE /api_keys/{key_id}: 404 for an unknown or already revoked key. */
export const revokeApiKeyRoute: Route = {
  method: 'DELETE',
  pattern: '/api_keys/{key_id}',
  handle({ params, target }) {
    const raw = params['key_id'] ?? '';
    const keyId = Number(raw);
    if (!/^\d{1,15}$/.test(raw) || !Number.isSafeInteger(keyId))
      return errorResponse(reject('invalid_input', `key_id must be an integer, got ${raw}`));
    const result = target.execute({ type: 'RevokeApiKey', keyId });
    return executed(result, () => {
      const key = target.state.apiKeys?.[String(keyId)];
      if (key === undefined) throw new Error(`revoked key ${keyId} missing from state`);
      return {
        status: 200,
        body: { ...keyRecord(key), created_by: SIMULATED_USER.id, revoked: key.revoked },
      };
    });
  },
};

/** The fields every key record shares (never the secret). */
function keyRecord(key: ApiKeyState): Record<string, unknown> {
  return {
    id: key.id,
    name: key.name,
    created_at: formatInstant(key.createdAt),
    last_used_at: null,
    last_used_from_addr: '',
  };
}
