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
  /** Each segment's parameter name, or undefined for a literal one. */
  readonly params: readonly (string | undefined)[];
}

/**
 * A node of the route trie: the routes whose pattern ends here (in table order), and the next
 * segment's nodes, by literal and for a parameter.
 */
interface TrieNode<R extends RoutePattern> {
  readonly routes: CompiledRoute<R>[];
  readonly literals: Map<string, TrieNode<R>>;
  param: TrieNode<R> | undefined;
}

/** A router over a fixed list of routes (the REST table, or any table of method and pattern). */
export class Router<R extends RoutePattern = Route> {
  readonly #root: TrieNode<R> = node();

  constructor(routes: readonly R[]) {
    for (const route of routes) {
      let at = this.#root;
      const params: (string | undefined)[] = [];
      for (const segment of split(route.pattern)) {
        const param = /^\{(\w+)\}$/.exec(segment)?.[1];
        params.push(param);
        if (param === undefined) {
          let next = at.literals.get(segment);
          if (next === undefined) at.literals.set(segment, (next = node()));
          at = next;
        } else at = at.param ??= node();
      }
      at.routes.push({ route, params });
    }
  }

  /** Finds the route for `method` and `pathname` (no query string, relative to `/api/v2`). */
  match(method: string, pathname: string): Result<RouteMatch<R>, Rejection> {
    const parts = split(pathname);
    let pathKnown = false;
    for (const compiled of this.#candidates(parts)) {
      const params = decodeParams(compiled.params, parts);
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
    for (const compiled of this.#candidates(parts))
      if (decodeParams(compiled.params, parts) !== undefined) methods.add(compiled.route.method);
    return [...methods];
  }

  /**
   * The routes whose literals are the path's and whose length is its length (only those are ever
   * looked at, so a long table costs no more than a short one): a literal segment before a
   * parameter in the same place, compared from the left; routes of the same literals and
   * parameters in table order.
   */
  #candidates(parts: readonly string[]): CompiledRoute<R>[] {
    const found: CompiledRoute<R>[] = [];
    collect(this.#root, parts, 0, found);
    return found;
  }
}

/** Adds to `found` the routes under `at` matching `parts` from `depth` on, literal branch first. */
function collect<R extends RoutePattern>(
  at: TrieNode<R>,
  parts: readonly string[],
  depth: number,
  found: CompiledRoute<R>[],
): void {
  if (depth === parts.length) {
    for (const route of at.routes) found.push(route);
    return;
  }
  const literal = at.literals.get(parts[depth] as string);
  if (literal !== undefined) collect(literal, parts, depth + 1, found);
  if (at.param !== undefined) collect(at.param, parts, depth + 1, found);
}

function node<R extends RoutePattern>(): TrieNode<R> {
  return { routes: [], literals: new Map(), param: undefined };
}

function split(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

/** The parameters of a matched path, decoded; undefined when one is not valid percent-encoding. */
function decodeParams(
  names: readonly (string | undefined)[],
  parts: readonly string[],
): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    if (name === undefined) continue;
    const part = parts[i] as string;
    // Without a `%` there is nothing to decode (and nothing that could fail to).
    if (!part.includes('%')) {
      params[name] = part;
      continue;
    }
    try {
      params[name] = decodeURIComponent(part);
    } catch {
      return undefined;
    }
  }
  return params;
}
