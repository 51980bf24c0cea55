/**
 * Where the API lives: every route's pattern is relative to `/api/v2`, and a path may be given with
 * or without it. The one definition of the prefix; servers and clients read it here.
 */

/** The prefix of every route. */
export const API_PREFIX = '/api/v2';

/** A request path taken apart: relative to the prefix, its query, and whether it had the prefix. */
export interface ApiPath {
  /** Relative to `/api/v2`, without the query. */
  readonly pathname: string;
  readonly query: URLSearchParams;
  /** The query as it was written (without the `?`). */
  readonly search: string;
  /** Whether the path started with `/api/v2` (a server answers nothing else). */
  readonly prefixed: boolean;
}

/** Splits `path` (`/api/v2/projects?limit=1` or `/projects?limit=1`) into its parts. */
export function apiPath(path: string): ApiPath {
  const at = path.indexOf('?');
  const whole = at === -1 ? path : path.slice(0, at);
  const search = at === -1 ? '' : path.slice(at + 1);
  const prefixed = whole === API_PREFIX || whole.startsWith(`${API_PREFIX}/`);
  return {
    pathname: prefixed ? whole.slice(API_PREFIX.length) : whole,
    query: new URLSearchParams(search),
    search,
    prefixed,
  };
}
