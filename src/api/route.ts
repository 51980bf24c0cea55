/**
 * One entry of the route table: a method, a path pattern with `{param}` segments, and a handler.
 */
import type { ApiResponse } from './apiResponse.js';
import type { Method } from './method.js';
import type { RequestTarget } from './requestTarget.js';

/** What a handler receives; `body` is typed `B` by the route (see `Route`). */
export interface RouteInput<B = unknown> {
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly body: B;
  readonly target: RequestTarget;
  /** Set when the API key reaches only one project (listings show only it). */
  readonly onlyProject?: string;
}

/**
 * A route: `pattern` is relative to `/api/v2`, e.g. `/projects/{project_id}/endpoints`. `B` is the
 * request body of its operation as the public schema declares it (`ProjectCreateRequest`, …): the
 * pipeline calls the handler only with a body that schema accepted, so a handler maps fields and
 * checks only what the schema cannot say (the domain's rules). A route without a body keeps
 * `unknown`.
 */
export interface Route<B = unknown> {
  readonly method: Method;
  readonly pattern: string;
  // A method, not a function property: a route typed by its body then fits the table of routes.
  handle(input: RouteInput<B>): ApiResponse;
}
