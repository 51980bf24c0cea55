/**
 * The router: a literal segment wins over a `{param}` in the same place, whatever the table's order
 * (`/projects/shared` is not the project "shared"); parameters still match everything else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Router } from '../../src/api/router.js';

const table = [
  { method: 'GET', pattern: '/projects/{project_id}', name: 'project' },
  { method: 'DELETE', pattern: '/projects/{project_id}', name: 'delete project' },
  { method: 'GET', pattern: '/projects/{project_id}/branches/{branch_id}', name: 'branch' },
  { method: 'GET', pattern: '/projects/shared', name: 'shared' },
  { method: 'GET', pattern: '/projects/{project_id}/branches/count', name: 'count' },
];

describe('Router', () => {
  const router = new Router(table);
  const matched = (method: string, path: string) => {
    const match = router.match(method, path);
    return match.ok ? [match.value.route.name, match.value.params] : match.error.kind;
  };

  it('prefers a literal segment to a parameter, even when the parameter route comes first', () => {
    expect(matched('GET', '/projects/shared')).toEqual(['shared', {}]);
    expect(matched('GET', '/projects/p-1/branches/count')).toEqual([
      'count',
      { project_id: 'p-1' },
    ]);
  });

  it('still matches parameters elsewhere, and other methods on a parameter route', () => {
    expect(matched('GET', '/projects/p-1')).toEqual(['project', { project_id: 'p-1' }]);
    expect(matched('GET', '/projects/p-1/branches/br-1')).toEqual([
      'branch',
      { project_id: 'p-1', branch_id: 'br-1' },
    ]);
    expect(matched('DELETE', '/projects/shared')).toEqual([
      'delete project',
      { project_id: 'shared' },
    ]);
    expect(matched('POST', '/projects/shared')).toBe('method_not_allowed');
    expect(matched('GET', '/nothing')).toBe('not_found');
  });

  it('matches as a scan of the table sorted literal-first would, for any table and path', () => {
    const segment = fc.constantFrom('a', 'b', '{x}', '{y}');
    const route = fc.record({
      method: fc.constantFrom('GET', 'POST'),
      pattern: fc.array(segment, { maxLength: 3 }).map((s) => `/${s.join('/')}`),
    });
    const path = fc
      .array(fc.constantFrom('a', 'b', 'c', '%E0%A4%A', '%41', ''), { maxLength: 4 })
      .map((s) => `/${s.join('/')}`);
    fc.assert(
      fc.property(
        fc.array(route, { maxLength: 12 }),
        path,
        fc.constantFrom('GET', 'POST'),
        (routes, p, method) => {
          const named = routes.map((r, i) => ({ ...r, name: i }));
          const got = new Router(named).match(method, p);
          const want = scan(named, method, p);
          expect(got.ok ? [got.value.route.name, got.value.params] : got.error.kind).toEqual(want);
          const methods = new Router(named).methodsAt(p);
          expect(methods).toEqual(scanMethods(named, p));
        },
      ),
      { numRuns: 400 },
    );
  });
});

type Named = { method: string; pattern: string; name: number };

const parts = (path: string) => path.split('/').filter((s) => s !== '');
const paramOf = (segment: string) => /^\{(\w+)\}$/.exec(segment)?.[1];

/** The routes of `path`'s length, literal segments before parameters from the left, ties in table order. */
function sorted(routes: readonly Named[], path: string): Named[] {
  const length = parts(path).length;
  const kinds = (r: Named) => parts(r.pattern).map((s) => (paramOf(s) === undefined ? 0 : 1));
  return routes
    .filter((r) => parts(r.pattern).length === length)
    .sort((a, b) => {
      const [ka, kb] = [kinds(a), kinds(b)];
      const i = ka.findIndex((k, j) => k !== kb[j]);
      return i < 0 ? 0 : (ka[i] as number) - (kb[i] as number);
    });
}

/** The parameters of `route` on `path`, or undefined when a literal differs or a part will not decode. */
function paramsOn(route: Named, path: string): Record<string, string> | undefined {
  const given = parts(path);
  const params: Record<string, string> = {};
  for (const [i, s] of parts(route.pattern).entries()) {
    const name = paramOf(s);
    if (name === undefined) {
      if (s !== given[i]) return undefined;
      continue;
    }
    try {
      params[name] = decodeURIComponent(given[i] as string);
    } catch {
      return undefined;
    }
  }
  return params;
}

function scan(routes: readonly Named[], method: string, path: string): unknown {
  let known = false;
  for (const route of sorted(routes, path)) {
    const params = paramsOn(route, path);
    if (params === undefined) continue;
    if (route.method === method) return [route.name, params];
    known = true;
  }
  return known ? 'method_not_allowed' : 'not_found';
}

function scanMethods(routes: readonly Named[], path: string): string[] {
  const methods = sorted(routes, path)
    .filter((r) => paramsOn(r, path) !== undefined)
    .map((r) => r.method);
  return [...new Set(methods)];
}
