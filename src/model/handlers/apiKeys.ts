/**
 * API keys created and revoked through the API: a new key gets the next id and a secret drawn from
 * the `apiKeys` stream of the seed; a revoked key stays in the state, marked, and is refused from
 * then on.
 */
import { err, ok } from '../../core/result.js';
import { reject } from '../../domain/rejection.js';
import type { CreateApiKey, RevokeApiKey } from '../commands.js';
import type { Handler, Pending } from '../decideContext.js';

/** Characters of a key secret (the real service's keys are 64 lower-case letters and digits). */
const SECRET_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const SECRET_LENGTH = 64;

/** Decides the creation of a personal API key. */
export const createApiKey: Handler<CreateApiKey> = (state, command, context) => {
  const keyId = Object.keys(state.apiKeys ?? {}).length + 1;
  const random = context.random('apiKeys');
  let key = '';
  for (let i = 0; i < SECRET_LENGTH; i++)
    key += SECRET_ALPHABET.charAt(random.int(0, SECRET_ALPHABET.length - 1));
  return ok<Pending>([{ type: 'ApiKeyCreated', keyId, name: command.name, key }]);
};

/** Decides revoking an API key: 404 when no live key has that id. */
export const revokeApiKey: Handler<RevokeApiKey> = (state, command) => {
  const key = state.apiKeys?.[String(command.keyId)];
  if (key === undefined || key.revoked)
    return err(reject('not_found', `API key ${command.keyId} not found`));
  return ok<Pending>([{ type: 'ApiKeyRevoked', keyId: command.keyId }]);
};
