/**
 * The key-scope matrix over HTTP (the core's `fetch` in process, and a socket): the same answers as
 * in process, never another project's data.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { serveOver, TRANSPORTS } from '../support/transports.js';

describe.each(TRANSPORTS)('API keys over HTTP (%s)', (transport) => {
  let send: (url: string, init?: RequestInit) => Promise<Response>;
  let base: string;
  let a: string;
  let b: string;

  beforeEach(async () => {
    const sim = new Simulation({ seed: 8 });
    a = sim.request('POST', '/projects', { project: { name: 'a' } }).body.project.id;
    b = sim.request('POST', '/projects', { project: { name: 'b' } }).body.project.id;
    ({ send, base } = await serveOver(
      transport,
      {
        keys: [
          { key: 'personal', kind: 'personal' },
          { key: 'org', kind: 'organization' },
          { key: 'scoped', kind: 'project', projectId: a },
        ],
      },
      sim,
    ));
  });

  it.each([
    [undefined, 'GET', '/projects', 401],
    ['nope', 'GET', '/projects', 401],
    ['personal', 'GET', '/projects/B', 200],
    ['org', 'GET', '/projects/B/branches', 200],
    ['scoped', 'GET', '/projects/A', 200],
    ['scoped', 'GET', '/projects/A/operations', 200],
    ['scoped', 'GET', '/projects/B', 404],
    ['scoped', 'GET', '/projects/B/endpoints', 404],
    ['scoped', 'POST', '/projects', 403],
    ['scoped', 'DELETE', '/projects/A', 403],
    ['scoped', 'POST', '/_sim/advance', 403],
  ])('key %s: %s %s → %d', async (key, method, path, status) => {
    const response = await send(`${base}${path.replace('/A', `/${a}`).replace('/B', `/${b}`)}`, {
      method,
      headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(status);
    const body = (await response.json()) as { code?: string };
    if (status >= 400) expect(body.code).toEqual(expect.any(String));
    // A refusal may echo the id the client sent; an answer never carries another project.
    if (key === 'scoped' && status < 400) expect(JSON.stringify(body)).not.toContain(b);
  });

  it('lists only its own project to a project-scoped key', async () => {
    const response = await send(`${base}/projects`, {
      headers: { authorization: 'Bearer scoped' },
    });
    const { projects } = (await response.json()) as { projects: { id: string }[] };
    expect(projects.map((p) => p.id)).toEqual([a]);
  });
});
