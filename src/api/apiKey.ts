/**
 * API keys and their reach. Personal and organization keys reach every project; a project-scoped key
 * reaches only its project, and can neither create projects nor delete its own. Without any key
 * configured, an in-process simulation accepts every request. Keys come from two places: those the
 * simulation was given (`sim.addApiKey`, `serve --api-key`) and personal keys created through the API
 * (`POST /api_keys`, kept in the state); a revoked key is refused like an unknown one. Only a
 * personal key belongs to the user: organization and project keys cannot read `/users/me` or manage
 * personal keys.
 */
import { notFound, reject, type Rejection } from '../domain/rejection.js';
import type { SimState } from '../model/state.js';
import type { Method } from './method.js';

/** The kinds of API key. */
export const API_KEY_KINDS = ['personal', 'organization', 'project'] as const;

/**
 * Why `secret` cannot be an API key (empty, or with white space: it goes in an `Authorization`
 * header as one token), or `undefined`.
 */
export function apiKeyProblem(secret: string): string | undefined {
  return secret.length === 0 || /\s/.test(secret)
    ? 'an API key must be a non-empty string without spaces'
    : undefined;
}

/** An API key the simulation accepts. */
export type ApiKey =
  | { readonly key: string; readonly kind: 'personal' | 'organization' }
  | { readonly key: string; readonly kind: 'project'; readonly projectId: string };

/** The keys requests are checked against. */
export interface KeyRing {
  /** Whether requests need a key (a simulation that never had one accepts every request). */
  readonly required: boolean;
  /** The live key with this secret, if any. */
  find(secret: string): ApiKey | undefined;
}

/**
 * The keys of a simulation: those it was given, and the personal keys created through the API
 * (`state.apiKeys`). Once a key has been created, keys are required, even after it is revoked.
 */
export function keyRingOf(configured: ReadonlyMap<string, ApiKey>, state: SimState): KeyRing {
  const created = state.apiKeys ?? {};
  return {
    required: configured.size > 0 || Object.keys(created).length > 0,
    find(secret) {
      const given = configured.get(secret);
      if (given !== undefined) return given;
      const key = Object.values(created).find((k) => k.key === secret && !k.revoked);
      return key === undefined ? undefined : { key: key.key, kind: 'personal' };
    },
  };
}

/** Routes only a user may call: a personal key, not an organization or project key. */
const USER_ROUTES: ReadonlySet<string> = new Set(['/users/me', '/api_keys', '/api_keys/{key_id}']);

/**
 * Why `apiKey` may not make this request (401 missing or unknown, 403 not allowed, 404 another
 * project's objects, so their existence does not leak), or `undefined`.
 */
export function keyProblem(
  keys: KeyRing,
  apiKey: string | undefined,
  method: Method,
  pattern: string,
  projectId: string | undefined,
): Rejection | undefined {
  if (!keys.required) return undefined;
  if (apiKey === undefined || apiKey === '')
    return reject(
      'unauthorized',
      'authentication required: send an API key (Authorization: Bearer <key>)',
    );
  const key = keys.find(apiKey);
  if (key === undefined) return reject('unauthorized', 'the API key is not valid');
  if (key.kind !== 'personal' && USER_ROUTES.has(pattern))
    return reject(
      'forbidden',
      `${key.kind === 'project' ? 'a project-scoped' : 'an organization'} API key is not tied to a user: use a personal API key`,
    );
  if (key.kind !== 'project') return undefined;
  // Another project's objects are 404, before anything else, so their existence does not leak.
  if (projectId !== undefined && projectId !== key.projectId) {
    return notFound('project', projectId);
  }
  if (method === 'POST' && pattern === '/projects') {
    return reject('forbidden', 'a project-scoped API key cannot create projects');
  }
  if (method === 'DELETE' && pattern === '/projects/{project_id}') {
    return reject('forbidden', 'a project-scoped API key cannot delete its project');
  }
  return undefined;
}
