/**
 * Routing over the public schema: an operation of the schema that computesim does not simulate
 * answers 501 naming it, a path no operation has 404, a known path with another method 405 (with
 * `Allow` over serve), and literal segments win over parameters. The same in process and over both
 * transports of `serve`.
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import type { Route } from '../../src/api/route.js';
import { ROUTES } from '../../src/api/routeTable.js';
import { SchemaRouter } from '../../src/api/schemaRouter.js';
import { publicContract } from '../../src/schema/publicSchema.js';
import { schemaProblems } from '../support/openApiValidator.js';
import { serveOver, TRANSPORTS } from '../support/transports.js';

const operations = publicContract().operations;
const simulated = new Set(ROUTES.map((route) => `${route.method} ${route.pattern}`));
const notSimulated = (pattern: string, method = 'GET') => ({
  code: 'not_implemented',
  message: `${method} ${pattern} is not simulated by computesim`,
  request_id: expect.any(String),
});

/** A project, settled, with its ids. */
function world() {
  const sim = new Simulation({ seed: 4 });
  const created = sim.request('POST', '/projects', { project: { name: 'routing' } }).body;
  sim.runUntilIdle();
  return { sim, project: created.project.id as string, branch: created.branch.id as string };
}

describe('routing over the public schema, in process', () => {
  it('answers 501 naming the operation for every operation of the schema without a route, whatever the ids', () => {
    const { sim, project, branch } = world();
    const unsimulated = operations.filter((o) => !simulated.has(`${o.method} ${o.pattern}`));
    expect(unsimulated.length).toBeGreaterThan(100);
    for (const operation of unsimulated) {
      const path = operation.pattern
        .replace('{project_id}', project)
        .replace('{branch_id}', branch)
        .replace(/\{\w+\}/g, 'some-id');
      const before = sim.log.length;
      const response = sim.request(operation.method, path, {});
      expect(response.status, `${operation.method} ${path}`).toBe(501);
      expect(response.body).toEqual(notSimulated(operation.pattern, operation.method));
      // An error body the schema allows for that operation (its `default` response).
      expect(schemaProblems(operation.method, operation.pattern, 501, response.body)).toEqual([]);
      expect(sim.log.length).toBe(before);
    }
  });

  it('reaches the route of every simulated operation (never 501, 405 or "no route")', () => {
    const { sim, project, branch } = world();
    for (const operation of operations.filter((o) => simulated.has(`${o.method} ${o.pattern}`))) {
      const path = operation.pattern
        .replace('{project_id}', project)
        .replace('{branch_id}', branch)
        .replace(/\{\w+\}/g, 'unknown');
      const response = sim.request(operation.method, path, undefined);
      expect([501, 405], `${operation.method} ${path}`).not.toContain(response.status);
      expect(response.body?.message ?? '').not.toMatch(/^no route/);
    }
  });

  it('lets a literal segment win over a parameter, in the schema as in the route table', () => {
    const { sim, project } = world();
    // `/projects/shared` is not project "shared"; `branches/count` is not branch "count".
    expect(sim.request('GET', '/projects/shared')).toMatchObject({
      status: 200,
      body: { projects: [] },
    });
    expect(sim.request('GET', `/projects/${project}/branches/count`)).toMatchObject({
      status: 200,
      body: { count: 1 },
    });
    expect(sim.request('GET', '/projects/sharedx').status).toBe(404); // a project id again
  });

  it('answers 404 for a path no operation has, and 405 with the methods for a known path', () => {
    const { sim, project } = world();
    for (const path of ['/nope', `/projects/${project}/nonsense`, '/projects/a/b/c/d/e/f/g']) {
      expect(sim.request('GET', path)).toMatchObject({ status: 404, body: { code: '' } });
    }
    const wrong = sim.request('PUT', `/projects/${project}`);
    expect(wrong.status).toBe(405);
    expect(wrong.body.message).toBe(`method PUT is not allowed on /projects/${project}`);
    // GET and DELETE are simulated, PATCH is in the schema: all three are allowed methods.
    expect(new Set(wrong.headers?.['allow']?.split(', '))).toEqual(
      new Set(['GET', 'DELETE', 'PATCH']),
    );
  });

  it('simulates any route added to the table, with nothing else to change', () => {
    const schemaRoute: Route = {
      method: 'GET',
      pattern: '/projects/{project_id}/branches/{branch_id}/schema',
      handle: ({ params }) => ({ status: 200, body: { params } }),
    };
    const without = new SchemaRouter(ROUTES, publicContract()).match(
      'GET',
      '/projects/p/branches/b/schema',
    );
    expect(without.ok).toBe(false);
    const withIt = new SchemaRouter([...ROUTES, schemaRoute], publicContract()).match(
      'GET',
      '/projects/p/branches/b/schema',
    );
    expect(withIt.ok && withIt.value.route).toBe(schemaRoute);
    expect(withIt.ok && withIt.value.params).toEqual({ project_id: 'p', branch_id: 'b' });
  });
});

describe.each(TRANSPORTS)('routing over the public schema, served over %s', (transport) => {
  it('answers 501, 404 and 405 (with Allow) as sim.request does', async () => {
    const { call, server } = await serveOver(transport);
    const created = await call('POST', '/projects', { project: {} });
    const project = created.body.project.id as string;
    const unsimulated = await call('GET', `/projects/${project}/branches/br-x/schema`);
    expect(unsimulated.status).toBe(501);
    expect(unsimulated.body).toEqual(
      notSimulated('/projects/{project_id}/branches/{branch_id}/schema'),
    );
    expect((await call('GET', '/projects/shared')).status).toBe(200);
    expect((await call('GET', `/projects/${project}/permissions`)).body).toEqual(
      notSimulated('/projects/{project_id}/permissions'),
    );
    const unknown = await call('GET', '/no/such/thing');
    expect(unknown).toMatchObject({
      status: 404,
      body: { message: expect.stringMatching(/no route/) },
    });
    const wrong = await call('PUT', `/projects/${project}`);
    expect(wrong.status).toBe(405);
    expect(new Set(wrong.headers.get('allow')?.split(', '))).toEqual(
      new Set(['GET', 'DELETE', 'PATCH']),
    );
    const direct = server.sim.request(
      'GET',
      `/projects/${project}/branches/br-x/schema`,
      undefined,
      {
        apiKey: 'test-key',
      },
    );
    const { request_id: _served, ...served } = unsimulated.body;
    const { request_id: _direct, ...inProcess } = direct.body;
    expect(served).toEqual(inProcess);
  });
});
