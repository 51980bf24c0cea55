/**
 * An API key given to a simulation (`addApiKey`, the `apiKeys` option): its kind and project
 * checked, its key string taken as given or generated from the seed.
 */
import { own } from '../core/own.js';
import { API_KEY_KINDS, apiKeyProblem, type ApiKey } from '../api/apiKey.js';
import type { SimState } from '../model/state.js';

/** What the simulation a key is given to tells about itself. */
interface KeyHolder {
  /** Keys given so far (the generated key string counts them). */
  readonly given: number;
  readonly seed: number;
  /** The state a project-scoped key's project must exist in (read only for such a key). */
  state(): SimState;
}

/**
 * The key `key` describes, generated when it names none. Throws a `RangeError` naming the problem
 * for an unknown kind, a project-scoped key without an existing project, or a malformed key.
 */
export function givenApiKey(
  key: { readonly kind: ApiKey['kind']; readonly key?: string; readonly projectId?: string },
  holder: KeyHolder,
): ApiKey {
  if (!(API_KEY_KINDS as readonly string[]).includes(key.kind)) {
    throw new RangeError(
      `API key kind must be one of ${API_KEY_KINDS.join(', ')}, got ${JSON.stringify(key.kind)}`,
    );
  }
  if (
    key.kind === 'project' &&
    (key.projectId === undefined || own(holder.state().projects, key.projectId) === undefined)
  ) {
    throw new RangeError(
      `a project-scoped API key needs an existing projectId, got ${JSON.stringify(key.projectId)}`,
    );
  }
  const value = key.key ?? `csim_${key.kind}_${holder.given + 1}_${holder.seed.toString(36)}`;
  const problem = apiKeyProblem(value);
  if (problem !== undefined) throw new RangeError(problem);
  return key.kind === 'project'
    ? { key: value, kind: 'project', projectId: key.projectId as string }
    : { key: value, kind: key.kind };
}
