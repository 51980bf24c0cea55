/**
 * Request bodies of simulated routes are checked against the public schema before the simulation
 * decides anything: a body the schema refuses is a 400 naming the field, and changes nothing (no
 * event, not even a refused request's), in process and over serve.
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { serveOver, TRANSPORTS } from '../support/transports.js';

/** A project with its ids, settled (no operation under way) unless `settle` is false. */
function world(settle = true) {
  const sim = new Simulation({ seed: 6 });
  const created = sim.request('POST', '/projects', { project: { name: 'bodies' } }).body;
  if (settle) sim.runUntilIdle();
  return {
    sim,
    project: created.project.id as string,
    branch: created.branch.id as string,
    endpoint: created.endpoints[0].id as string,
  };
}

describe('request bodies checked against the public schema', () => {
  const { sim, project, branch, endpoint } = world();
  it.each([
    ['POST', '/projects', undefined, 'body: is required'],
    ['POST', '/projects', {}, 'project: is required'],
    ['POST', '/projects', { project: { name: 5 } }, 'project.name: must be string'],
    ['POST', '/projects', { project: { pg_version: 13 } }, 'project.pg_version: must be >= 14'],
    [
      'POST',
      '/projects',
      { project: { branch: { name: '' } } },
      'project.branch.name: must NOT have fewer than 1 characters',
    ],
    ['POST', 'BRANCHES', { endpoints: [{}] }, 'endpoints[0].type: is required'],
    [
      'POST',
      'BRANCHES',
      { branch: { parent_timestamp: 'yesterday' } },
      'branch.parent_timestamp: must match format "date-time"',
    ],
    ['POST', 'ENDPOINTS', { endpoint: { branch_id: 'BRANCH' } }, 'endpoint.type: is required'],
    [
      'POST',
      'ENDPOINTS',
      { endpoint: { branch_id: 'BRANCH', type: 'big' } },
      'endpoint.type: must be one of read_only, read_write',
    ],
    [
      'PATCH',
      'ENDPOINT',
      { endpoint: { autoscaling_limit_min_cu: 'big' } },
      'endpoint.autoscaling_limit_min_cu: must be number',
    ],
    ['PATCH', 'ENDPOINT', { endpoint: [] }, 'endpoint: must be object'],
  ])('%s %s with %j is a 400: %s', (method, where, body, message) => {
    const path =
      where === 'BRANCHES'
        ? `/projects/${project}/branches`
        : where === 'ENDPOINTS'
          ? `/projects/${project}/endpoints`
          : where === 'ENDPOINT'
            ? `/projects/${project}/endpoints/${endpoint}`
            : where;
    const sent = JSON.parse(JSON.stringify(body ?? null).replaceAll('"BRANCH"', `"${branch}"`));
    const before = sim.state;
    const length = sim.log.length;
    const response = sim.request(method, path, body === undefined ? undefined : sent);
    expect(response).toEqual({
      status: 400,
      body: { code: '', message, request_id: expect.any(String) },
    });
    expect(sim.state).toBe(before);
    expect(sim.log.length).toBe(length);
  });

  it('checks the body before the simulation decides: a locked project is not asked', () => {
    const busy = world(); // a restart under way: a valid branch would be a 423
    busy.sim.request('POST', `/projects/${busy.project}/endpoints/${busy.endpoint}/restart`);
    const length = busy.sim.log.length;
    expect(busy.sim.request('POST', `/projects/${busy.project}/branches`, {}).status).toBe(423);
    expect(busy.sim.log.length).toBeGreaterThan(length); // the refusal is recorded
    const after423 = busy.sim.log.length;
    const refused = busy.sim.request('POST', `/projects/${busy.project}/branches`, {
      branch: { name: 7 },
    });
    expect(refused.body).toMatchObject({ message: 'branch.name: must be string' });
    expect(busy.sim.log.length).toBe(after423); // nothing recorded for a refused body
  });

  it('never changes the body it checks, and accepts what the schema allows', () => {
    const body = Object.freeze({
      endpoint: Object.freeze({ branch_id: branch, type: 'read_only' as const }),
    });
    const response = sim.request('POST', `/projects/${project}/endpoints`, body);
    expect(response.status).toBe(201);
    expect(body).toEqual({ endpoint: { branch_id: branch, type: 'read_only' } });
  });

  it('answers an unknown key before looking at the body', () => {
    const keyed = new Simulation({ seed: 1, apiKeys: [{ key: 'k', kind: 'personal' }] });
    const response = keyed.request('POST', '/projects', { project: 5 }, { apiKey: 'wrong' });
    expect(response.status).toBe(401);
  });
});

describe.each(TRANSPORTS)('request bodies checked over %s', (transport) => {
  it('refuses a body the schema refuses with a 400 naming the field, and changes nothing', async () => {
    const { call, server } = await serveOver(transport);
    const missing = await call('POST', '/projects');
    expect(missing).toMatchObject({ status: 400, body: { message: 'body: is required' } });
    const length = server.sim.log.length;
    const refused = await call('POST', '/projects', { project: { name: ['x'] } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: '', message: 'project.name: must be string' });
    expect(server.sim.log.length).toBe(length);
    expect((await call('POST', '/projects', { project: { name: 'ok' } })).status).toBe(201);
  });
});
