/**
 * Paging by cursor, as the project listing and the consumption history share it: each page starts
 * after the id the previous page ended on, and a cursor no page gave is a 400 that changes nothing.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies read as JSON */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';

function givenProjects(count: number) {
  const sim = new Simulation({ seed: 31 });
  for (let i = 0; i < count; i++) sim.request('POST', '/projects', { project: { name: `p${i}` } });
  sim.runUntilIdle();
  return sim;
}

const RANGE = 'from=2026-01-05T00:00:00Z&to=2026-01-05T02:00:00Z&granularity=hourly';

describe.each([
  ['GET /projects', (q: string) => `/projects?${q}`, (b: any) => b.projects.map((p: any) => p.id)],
  [
    'GET /consumption_history/projects',
    (q: string) => `/consumption_history/projects?${RANGE}&${q}`,
    (b: any) => b.projects.map((p: any) => p.project_id),
  ],
] as const)('%s', (_name, path, ids) => {
  it('pages after the cursor of the previous page, every project once', () => {
    const sim = givenProjects(5);
    const seen: string[] = [];
    let query = 'limit=2';
    for (;;) {
      const page = sim.request('GET', path(query));
      expect(page.status).toBe(200);
      const got = ids(page.body) as string[];
      if (got.length === 0) break;
      seen.push(...got);
      query = `limit=2&cursor=${page.body.pagination.cursor}`;
    }
    expect(seen).toEqual(Object.keys(sim.state.projects));
  });

  it('refuses a cursor no page gave with a 400 naming it', () => {
    const sim = givenProjects(2);
    const before = sim.log.length;
    const refused = sim.request('GET', path('cursor=no-such-project'));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('"no-such-project" is not a project id');
    expect(sim.log.length).toBe(before);
  });
});
