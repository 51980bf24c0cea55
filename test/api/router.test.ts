/**
 * The router: a literal segment wins over a `{param}` in the same place, whatever the table's order
 * (`/projects/shared` is not the project "shared"); parameters still match everything else.
 */
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
});
