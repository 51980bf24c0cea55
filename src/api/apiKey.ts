/**
 * API keys and their reach. Personal and organization keys reach every project; a project-scoped key
 * reaches only its project, and can neither create projects nor delete its own. Without any key
 * configured, an in-process simulation accepts every request.
 */
import { reject, type Rejection } from '../domain/rejection.js';
import type { Method } from './method.js';

/** The kinds of API key. */
export const API_KEY_KINDS = ['personal', 'organization', 'project'] as const;

/** An API key the simulation accepts. */
export type ApiKey =
  | { readonly key: string; readonly kind: 'personal' | 'organization' }
  | { readonly key: string; readonly kind: 'project'; readonly projectId: string };

/**
 * Why `apiKey` may not make this request (401 missing or unknown, 403 not allowed, 404 another
 * project's objects, so their existence does not leak), or `undefined`.
 */
export function keyProblem(
  keys: ReadonlyMap<string, ApiKey>,
  apiKey: string | undefined,
  method: Method,
  pattern: string,
  projectId: string | undefined,
): Rejection | undefined {
  if (keys.size === 0) return undefined;
  if (apiKey === undefined || apiKey === '')
    return reject(
      'unauthorized',
      'authentication required: send an API key (Authorization: Bearer <key>)',
    );
  const key = keys.get(apiKey);
  if (key === undefined) return reject('unauthorized', 'the API key is not valid');
  if (key.kind !== 'project') return undefined;
  // Another project's objects are 404, before anything else, so their existence does not leak.
  if (projectId !== undefined && projectId !== key.projectId) {
    return reject('not_found', `project ${projectId} not found`);
  }
  if (method === 'POST' && pattern === '/projects') {
    return reject('forbidden', 'a project-scoped API key cannot create projects');
  }
  if (method === 'DELETE' && pattern === '/projects/{project_id}') {
    return reject('forbidden', 'a project-scoped API key cannot delete its project');
  }
  return undefined;
}
