/**
 * Who may use the routes that reach the whole simulation (the `_sim` control routes, the
 * dashboard's data): any key the server knows that is not limited to one project, or anyone when
 * the server has no keys. One rule for every such route, and one reading of the bearer header.
 */
import { errorAnswer, type Answer } from './errorTable.js';

/** The key of an `Authorization: Bearer <key>` header, if it has one. */
export function bearer(authorization: string | null): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
}

/**
 * The refusal of a whole-simulation route to `apiKey` (401 unknown, 403 project-scoped), or
 * `undefined` when it may; `action` says what a project key cannot do ("control the simulation").
 */
export function controlAccess(
  keys: ReadonlyMap<string, { readonly kind: string }> | undefined,
  apiKey: string | undefined,
  action: string,
): Answer | undefined {
  if (keys === undefined || keys.size === 0) return undefined;
  const key = apiKey === undefined ? undefined : keys.get(apiKey);
  if (key === undefined)
    return errorAnswer('unauthorized', 'a valid API key is required (Authorization: Bearer …)');
  if (key.kind === 'project')
    return errorAnswer('forbidden', `a project-scoped key cannot ${action}`);
  return undefined;
}
