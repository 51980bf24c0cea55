/**
 * One entry of the route table: a method, a path pattern with `{param}` segments, and a handler.
 */
import type { ApiResponse } from './apiResponse.js';
import type { Method } from './method.js';
import type { RequestTarget } from './requestTarget.js';

/** What a handler receives. */
export interface RouteInput {
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly body: unknown;
  readonly target: RequestTarget;
  /** Set when the API key reaches only one project (listings show only it). */
  readonly onlyProject?: string;
}

/** A route: `pattern` is relative to `/api/v2`, e.g. `/projects/{project_id}/endpoints`. */
export interface Route {
  readonly method: Method;
  readonly pattern: string;
  readonly handle: (input: RouteInput) => ApiResponse;
}
