/**
 * Routes a request over the route table and the public schema together: a simulated route, an
 * operation of the schema that computesim does not simulate (501, naming it), a known path asked
 * with another method (405, with the methods it has), or nothing (404). A route in the table is
 * simulated; every other operation of the schema is not: routes added to the table need nothing
 * more here.
 */
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import type { ApiContract } from './apiContract.js';
import type { ApiResponse, ErrorBody } from './apiResponse.js';
import { errorResponse } from './apiResponse.js';
import type { Route } from './route.js';
import { Router, type RouteMatch } from './router.js';

/** An entry of the combined table: a simulated route, or a schema operation without one. */
interface Entry {
  readonly method: string;
  readonly pattern: string;
  readonly route?: Route;
}

/** A router over `routes` and every operation of `contract` that no route simulates. */
export class SchemaRouter {
  readonly #router: Router<Entry>;

  constructor(routes: readonly Route[], contract: ApiContract) {
    const simulated = new Set(routes.map((route) => `${route.method} ${route.pattern}`));
    const unsimulated = contract.operations
      .filter((operation) => !simulated.has(`${operation.method} ${operation.pattern}`))
      .map((operation) => ({ method: operation.method, pattern: operation.pattern }));
    this.#router = new Router<Entry>([
      ...routes.map((route) => ({ method: route.method, pattern: route.pattern, route })),
      ...unsimulated,
    ]);
  }

  /** The simulated route for `method pathname` (relative to `/api/v2`), or the answer to send. */
  match(
    method: string,
    pathname: string,
    requestId?: string,
  ): Result<RouteMatch<Route>, ApiResponse<ErrorBody>> {
    const match = this.#router.match(method, pathname);
    if (match.ok) {
      const { route, params } = match.value;
      if (route.route !== undefined) return ok({ route: route.route, params });
      return err(notSimulated(route.method, route.pattern, requestId));
    }
    const refused = errorResponse(match.error, requestId);
    if (match.error.kind !== 'method_not_allowed') return err(refused);
    return err({ ...refused, headers: { allow: this.#router.methodsAt(pathname).join(', ') } });
  }
}

/** The 501 for an operation of the public schema that computesim does not simulate. */
function notSimulated(method: string, pattern: string, requestId?: string): ApiResponse<ErrorBody> {
  return {
    status: 501,
    body: {
      code: 'not_implemented',
      message: `${method} ${pattern} is not simulated by computesim`,
      ...(requestId === undefined ? {} : { request_id: requestId }),
    },
  };
}
