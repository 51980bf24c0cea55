/**
 * Routes a request over the route table, the routes a server adds (its control routes) and the
 * public schema together: a simulated route, an added route, an operation of the schema that
 * computesim does not simulate (501, naming it), a known path asked with another method (405, with
 * the methods it has), or nothing (404). A route in the table is simulated; every other operation
 * of the schema is not: routes added to the table need nothing more here.
 */
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import type { ApiContract } from '../schema/apiContract.js';
import type { ApiResponse, ErrorBody } from './apiResponse.js';
import { errorResponse } from './apiResponse.js';
import type { Route } from './route.js';
import { Router } from './router.js';

/** What a router needs of an added route: its method and pattern. */
export interface AddedRoutePattern {
  readonly method: string;
  readonly pattern: string;
}

/** A match: a simulated route or an added one, with the decoded path parameters. */
export type RoutedTo<X extends AddedRoutePattern> =
  | { readonly route: Route; readonly added?: undefined; readonly params: Params }
  | { readonly route?: undefined; readonly added: X; readonly params: Params };

type Params = Readonly<Record<string, string>>;

/** An entry of the combined table. */
interface Entry<X> {
  readonly method: string;
  readonly pattern: string;
  readonly route?: Route;
  readonly added?: X;
}

/** A router over `routes`, the `added` routes, and every operation of `contract` no route simulates. */
export class SchemaRouter<X extends AddedRoutePattern = AddedRoutePattern> {
  readonly #router: Router<Entry<X>>;

  constructor(routes: readonly Route[], contract: ApiContract, added: readonly X[] = []) {
    const simulated = new Set(routes.map((route) => `${route.method} ${route.pattern}`));
    const unsimulated = contract.operations
      .filter((operation) => !simulated.has(`${operation.method} ${operation.pattern}`))
      .map((operation) => ({ method: operation.method, pattern: operation.pattern }));
    this.#router = new Router<Entry<X>>([
      ...routes.map((route) => ({ method: route.method, pattern: route.pattern, route })),
      ...added.map((route) => ({ method: route.method, pattern: route.pattern, added: route })),
      ...unsimulated,
    ]);
  }

  /**
   * The route for `method pathname` (relative to `/api/v2`), or the answer to send; with it, the
   * pattern the request counts against for rate limits (`undefined` when no path matched).
   */
  match(
    method: string,
    pathname: string,
  ): Result<RoutedTo<X>, { answer: ApiResponse<ErrorBody>; pattern?: string }> {
    const match = this.#router.match(method, pathname);
    if (match.ok) {
      const { route, params } = match.value;
      if (route.route !== undefined) return ok({ route: route.route, params });
      if (route.added !== undefined) return ok({ added: route.added, params });
      return err({ answer: notSimulated(route.method, route.pattern), pattern: route.pattern });
    }
    const refused = errorResponse(match.error);
    if (match.error.kind !== 'method_not_allowed') return err({ answer: refused });
    return err({
      answer: { ...refused, headers: { allow: this.#router.methodsAt(pathname).join(', ') } },
    });
  }
}

/** The 501 for an operation of the public schema that computesim does not simulate. */
function notSimulated(method: string, pattern: string): ApiResponse<ErrorBody> {
  return {
    status: 501,
    body: {
      code: 'not_implemented',
      message: `${method} ${pattern} is not simulated by computesim`,
    },
  };
}
