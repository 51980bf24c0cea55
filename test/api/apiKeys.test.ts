import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';

function world() {
  const sim = new Simulation();
  const a = sim.request('POST', '/projects', { project: { name: 'a' } }).body.project.id as string;
  const b = sim.request('POST', '/projects', { project: { name: 'b' } }).body.project.id as string;
  const personal = sim.addApiKey({ kind: 'personal' });
  const org = sim.addApiKey({ kind: 'organization', key: 'org-key' });
  const scoped = sim.addApiKey({ kind: 'project', projectId: a });
  return { sim, a, b, personal, org, scoped };
}

describe('API keys', () => {
  it('accepts everything in process until a key is added', () => {
    const sim = new Simulation();
    expect(sim.request('GET', '/projects').status).toBe(200);
  });

  it('answers 401 without a key or with an unknown one', () => {
    const { sim } = world();
    expect(sim.request('GET', '/projects')).toMatchObject({
      status: 401,
      body: { code: '', message: expect.stringMatching(/key/) },
    });
    expect(sim.request('GET', '/projects', undefined, { apiKey: 'nope' }).status).toBe(401);
  });

  it.each([
    ['personal', 'GET', '/projects/A', 200],
    ['personal', 'GET', '/projects/B', 200],
    ['organization', 'DELETE', '/projects/B', 200],
    ['project', 'GET', '/projects/A', 200],
    ['project', 'GET', '/projects/A/operations', 200],
    ['project', 'GET', '/projects/B', 404],
    ['project', 'GET', '/projects/B/endpoints', 404],
    ['project', 'POST', '/projects', 403],
    ['project', 'DELETE', '/projects/A', 403],
    ['project', 'DELETE', '/projects/B', 404],
  ])('a %s key: %s %s → %d', (kind, method, path, status) => {
    const w = world();
    const key = { personal: w.personal, organization: w.org, project: w.scoped }[kind]!;
    const response = w.sim.request(
      method,
      path.replace('/A', `/${w.a}`).replace('/B', `/${w.b}`),
      undefined,
      { apiKey: key },
    );
    expect(response.status).toBe(status);
  });

  it('lists only its own project to a project-scoped key, and never another project’s data', () => {
    const { sim, a, scoped } = world();
    const listed = sim.request('GET', '/projects', undefined, { apiKey: scoped }).body.projects;
    expect(listed.map((p: { id: string }) => p.id)).toEqual([a]);
  });

  it('refuses a project key for a project that does not exist, and a bad kind', () => {
    const sim = new Simulation();
    expect(() => sim.addApiKey({ kind: 'project', projectId: 'nope' })).toThrow(
      /existing projectId/,
    );
    expect(() => sim.addApiKey({ kind: 'root' as never })).toThrow(/kind must be one of/);
  });
});
