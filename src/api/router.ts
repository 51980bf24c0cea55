/**
 * Matches a method and path against the route table: the route and its path parameters, or why
 * nothing matched (404 unknown path, 405 known path with another method). A literal segment wins
 * over a parameter (`/projects/shared` before `/projects/{project_id}`), whatever the table's order.
 */
import { err, ok, type Result } from '../core/result.js';
import { reject, type Rejection } from '../domain/rejection.js';
import type { Route } from './route.js';

/** What a router needs of a route: its method and its pattern with `{param}` segments. */
export interface RoutePattern {
  readonly method: string;
  readonly pattern: string;
}

/** A matched route with its decoded path parameters. */
export interface RouteMatch<R extends RoutePattern = Route> {
  readonly route: R;
  readonly params: Readonly<Record<string, string>>;
}

interface CompiledRoute<R extends RoutePattern> {
  readonly route: R;
  readonly segments: readonly { readonly literal?: string; readonly param?: string }[];
}

/** A router over a fixed list of routes (the REST table, or any table of method and pattern). */
export class Router<R extends RoutePattern = Route> {
  /** The compiled routes by their number of segments (only those can match a path of as many). */
  readonly #byLength = new Map<number, CompiledRoute<R>[]>();

  constructor(routes: readonly R[]) {
    const compiled = routes
      .map((route) => ({
        route,
        segments: split(route.pattern).map((segment) => {
          const param = /^\{(\w+)\}$/.exec(segment)?.[1];
          return param === undefined ? { literal: segment } : { param };
        }),
      }))
      .sort(bySpecificity);
    for (const route of compiled) {
      const same = this.#byLength.get(route.segments.length);
      if (same === undefined) this.#byLength.set(route.segments.length, [route]);
      else same.push(route);
    }
  }

  /** Finds the route for `method` and `pathname` (no query string, relative to `/api/v2`). */
  match(method: string, pathname: string): Result<RouteMatch<R>, Rejection> {
    const parts = split(pathname);
    let pathKnown = false;
    for (const compiled of this.#byLength.get(parts.length) ?? []) {
      const params = matchSegments(compiled.segments, parts);
      if (params === undefined) continue;
      if (compiled.route.method === method) return ok({ route: compiled.route, params });
      pathKnown = true;
    }
    if (pathKnown)
      return err(reject('method_not_allowed', `method ${method} is not allowed on ${pathname}`));
    return err(reject('not_found', `no route for ${method} ${pathname}`));
  }

  /** The methods some route answers on `pathname` (the `Allow` of a 405), in table order. */
  methodsAt(pathname: string): string[] {
    const parts = split(pathname);
    const methods = new Set<string>();
    for (const compiled of this.#byLength.get(parts.length) ?? [])
      if (matchSegments(compiled.segments, parts) !== undefined) methods.add(compiled.route.method);
    return [...methods];
  }
}

/**
 * Literal segments before parameters, compared from the left; equal ones keep the table's order.
 * Routes of different lengths never compete (a path matches only as many segments), so they are
 * ordered by length first: comparing them on their common prefix alone is not a consistent order,
 * and sorting by it could put a parameter before a literal of the same length.
 */
function bySpecificity(a: CompiledRoute<RoutePattern>, b: CompiledRoute<RoutePattern>): number {
  if (a.segments.length !== b.segments.length) return a.segments.length - b.segments.length;
  const length = a.segments.length;
  for (let i = 0; i < length; i++) {
    const literalA = a.segments[i]?.literal !== undefined;
    const literalB = b.segments[i]?.literal !== undefined;
    if (literalA !== literalB) return literalA ? -1 : 1;
  }
  return 0;
}

function split(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

function matchSegments(
  segments: CompiledRoute<RoutePattern>['segments'],
  parts: readonly string[],
): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  // Literals first: most patterns of a large table fail on one, before any decoding.
  for (let i = 0; i < segments.length; i++) {
    const literal = segments[i]?.literal;
    if (literal !== undefined && literal !== parts[i]) return undefined;
  }
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as CompiledRoute<RoutePattern>['segments'][number];
    const part = parts[i] as string;
    if (segment.literal === undefined) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(part);
      } catch {
        return undefined;
      }
      params[segment.param as string] = decoded;
    }
  }
  return params;
}
