/**
 * The official TypeScript client (@neondatabase/api-client), pointed at `computesim serve`, runs a
 * full flow; every response it receives validates against the public v2 schema.
 */
import { createApiClient, EndpointType } from '@neondatabase/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Router } from '../../src/api/router.js';
import { ROUTES } from '../../src/api/routeTable.js';
import { Simulation } from '../../src/index.js';
import { SimServer } from '../../src/http/simServer.js';
import { schemaProblems } from '../support/openApiValidator.js';

const KEY = 'official-client-key';
const router = new Router(ROUTES);
let server: SimServer;
let base: string;

beforeAll(async () => {
  server = new SimServer(new Simulation({ seed: 21 }), {
    keys: [{ key: KEY, kind: 'personal' }],
    clock: { name: 'manual', rate: 0 },
  });
  base = await server.listen(0);
});
afterAll(() => server.close());

describe('the official client against computesim serve', () => {
  it('creates, waits, adds a replica, resizes, restarts, pages operations and deletes', async () => {
    const api = createApiClient({ apiKey: KEY, baseURL: base });
    const problems: string[] = [];
    let responses = 0;
    api.instance.interceptors.response.use(
      (response) => {
        responses++;
        const method = (response.config.method ?? 'get').toUpperCase();
        const path = new URL(response.config.url ?? '', `${base}/`).pathname.replace('/api/v2', '');
        const match = router.match(method, path);
        if (!match.ok) problems.push(`no route for ${method} ${path}`);
        else
          problems.push(
            ...schemaProblems(
              method,
              match.value.route.pattern,
              response.status,
              response.data,
            ).map((p) => `${method} ${path} ${response.status}: ${p}`),
          );
        return response;
      },
      (error: unknown) => Promise.reject(error),
    );
    const advance = (by: string) =>
      fetch(`${base}/_sim/advance`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ by }),
      });
    const waitFor = async (projectId: string, operations: readonly { id: string }[]) => {
      for (const { id } of operations)
        for (let polls = 0; ; polls++) {
          const { data } = await api.getProjectOperation(projectId, id);
          if (data.operation.status === 'finished') break;
          expect(['scheduling', 'running']).toContain(data.operation.status);
          expect(polls).toBeLessThan(20);
          await advance('5s');
        }
    };

    const created = await api.createProject({ project: { name: 'official' } });
    expect(created.status).toBe(201);
    const projectId = created.data.project.id;
    const branchId = created.data.branch.id;
    await waitFor(projectId, created.data.operations);

    const replica = await api.createProjectEndpoint(projectId, {
      endpoint: { branch_id: branchId, type: EndpointType.ReadOnly },
    });
    expect(replica.data.endpoint.type).toBe('read_only');
    await waitFor(projectId, replica.data.operations);

    const primaryId = created.data.endpoints[0]!.id;
    const resized = await api.updateProjectEndpoint(projectId, primaryId, {
      endpoint: { autoscaling_limit_min_cu: 0.5, autoscaling_limit_max_cu: 1 },
    });
    expect(resized.data.endpoint.autoscaling_limit_max_cu).toBe(1);
    await waitFor(projectId, resized.data.operations);

    const restarted = await api.restartProjectEndpoint(projectId, primaryId);
    await waitFor(projectId, restarted.data.operations);

    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 50; page++) {
      const { data } = await api.listProjectOperations({
        projectId,
        limit: 2,
        ...(cursor === undefined ? {} : { cursor }),
      });
      seen.push(...data.operations.map((o) => o.id));
      if (data.operations.length < 2) break;
      cursor = data.pagination?.cursor;
    }
    const total = Object.keys(server.sim.state.projects[projectId]!.operations).length;
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);

    const deleted = await api.deleteProject(projectId);
    expect(deleted.data.project.id).toBe(projectId);
    await expect(api.getProject(projectId)).rejects.toMatchObject({ response: { status: 404 } });

    expect(responses).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  }, 30_000);
});
