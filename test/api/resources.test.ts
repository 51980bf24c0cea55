import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { givenProject } from '../support/given.js';

describe('projects', () => {
  it('lists, gets and deletes projects; a deleted project is 404', () => {
    const { sim, projectId, path } = givenProject();
    expect(sim.request('GET', '/projects').body.projects.map((p: { id: string }) => p.id)).toEqual([
      projectId,
    ]);
    const deleted = sim.request('DELETE', path());
    expect(deleted.status).toBe(200);
    expect(deleted.body.project.id).toBe(projectId);
    expect(sim.request('GET', path()).status).toBe(404);
    expect(sim.request('GET', path('/operations')).status).toBe(404);
  });

  it('creates the default endpoint with the requested settings', () => {
    const sim = new Simulation();
    const created = sim.request('POST', '/projects', {
      project: {
        name: 'x',
        default_endpoint_settings: {
          autoscaling_limit_min_cu: 0.25,
          autoscaling_limit_max_cu: 2,
          suspend_timeout_seconds: 600,
        },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.endpoints[0]).toMatchObject({
      autoscaling_limit_min_cu: 0.25,
      autoscaling_limit_max_cu: 2,
      suspend_timeout_seconds: 600,
    });
    expect(
      created.body.operations.map(
        (o: { action: string; status: string }) => `${o.action}:${o.status}`,
      ),
    ).toEqual(['create_timeline:running', 'start_compute:scheduling']);
  });
});

describe('branches', () => {
  it('creates a branch with a compute: create_branch running, then start_compute; the branch becomes ready', () => {
    const { sim, path, settle, branchId } = givenProject();
    const created = sim.request('POST', path('/branches'), {
      branch: { name: 'preview-1' },
      endpoints: [{ type: 'read_write' }],
    });
    expect(created.status).toBe(201);
    expect(created.body.branch).toMatchObject({
      name: 'preview-1',
      parent_id: branchId,
      current_state: 'init',
      default: false,
    });
    expect(created.body.endpoints).toHaveLength(1);
    expect(
      created.body.operations.map(
        (o: { action: string; status: string }) => `${o.action}:${o.status}`,
      ),
    ).toEqual(['create_branch:running', 'start_compute:scheduling']);
    settle();
    expect(
      sim.request('GET', path(`/branches/${created.body.branch.id}`)).body.branch.current_state,
    ).toBe('ready');
    expect(sim.request('GET', path('/branches')).body.branches).toHaveLength(2);
  });

  it('refuses a duplicate name (409), the default branch (400), a parent with children (400) and an unknown parent (404)', () => {
    const { sim, path, settle, branchId } = givenProject();
    const child = sim.request('POST', path('/branches'), { branch: { name: 'dev' } });
    settle();
    expect(sim.request('POST', path('/branches'), { branch: { name: 'dev' } }).status).toBe(409);
    expect(sim.request('DELETE', path(`/branches/${branchId}`)).body.message).toMatch(
      /default branch/,
    );
    const grandchild = sim.request('POST', path('/branches'), {
      branch: { name: 'dev-2', parent_id: child.body.branch.id },
    });
    expect(grandchild.status).toBe(201);
    settle();
    expect(sim.request('DELETE', path(`/branches/${child.body.branch.id}`)).body.message).toMatch(
      /has child branch/,
    );
    expect(
      sim.request('POST', path('/branches'), { branch: { parent_id: 'br-none-none-000000' } })
        .status,
    ).toBe(404);
  });

  it('deletes a branch with its computes and drops their connections', () => {
    const { sim, path, settle } = givenProject();
    const created = sim.request('POST', path('/branches'), { endpoints: [{ type: 'read_write' }] });
    settle();
    const connection = sim.connect(created.body.endpoints[0].id);
    const deleted = sim.request('DELETE', path(`/branches/${created.body.branch.id}`));
    expect(deleted.status).toBe(200);
    // its running compute is suspended first, as on the real service
    expect(deleted.body.operations.map((o: { action: string }) => o.action)).toEqual([
      'suspend_compute',
      'delete_timeline',
    ]);
    expect(connection.state).toBe('dropped');
    expect(sim.request('GET', path(`/endpoints/${created.body.endpoints[0].id}`)).status).toBe(404);
  });
});

describe('computes', () => {
  it('deleting an absent compute in an existing project is 204; in an absent project 404', () => {
    const { sim, path, endpointId, projectId } = givenProject();
    expect(sim.request('DELETE', path(`/endpoints/${endpointId}`)).status).toBe(200);
    const again = sim.request('DELETE', path(`/endpoints/${endpointId}`));
    expect(again.status).toBe(204);
    expect(again.body).toBeUndefined();
    expect(sim.request('DELETE', `/projects/x${projectId}/endpoints/${endpointId}`).status).toBe(
      404,
    );
  });

  it('returns the operations an update starts, and none when nothing changes', () => {
    const { sim, path, endpointId } = givenProject();
    const same = sim.request('PATCH', path(`/endpoints/${endpointId}`), {
      endpoint: { autoscaling_limit_min_cu: 0.25 },
    });
    expect(same).toMatchObject({ status: 200, body: { operations: [] } });
    const changed = sim.request('PATCH', path(`/endpoints/${endpointId}`), {
      endpoint: { pooler_enabled: true, settings: { pg_settings: { work_mem: '64MB' } } },
    });
    expect(changed.body.endpoint).toMatchObject({
      pooler_enabled: true,
      settings: { pg_settings: { work_mem: '64MB' } },
    });
    expect(changed.body.operations.map((o: { action: string }) => o.action)).toEqual([
      'apply_config',
    ]);
  });

  it('restart returns a suspend_compute and a start_compute with distinct ids', () => {
    const { sim, path, endpointId } = givenProject();
    const restarted = sim.request('POST', path(`/endpoints/${endpointId}/restart`));
    const [suspend, start] = restarted.body.operations;
    expect([suspend.action, start.action]).toEqual(['suspend_compute', 'start_compute']);
    expect(suspend.id).not.toBe(start.id);
  });
});

describe('operations listing', () => {
  it('lists newest first, pages with limit and cursor, and returns [] past the end', () => {
    const { sim, path, endpointId, settle } = givenProject();
    for (let i = 0; i < 3; i++) {
      sim.request('POST', path(`/endpoints/${endpointId}/restart`));
      settle();
    }
    const all = sim.request('GET', path('/operations?limit=1000')).body.operations;
    expect(all).toHaveLength(8);
    expect(all.map((o: { created_at: string }) => o.created_at)).toEqual(
      [...all.map((o: { created_at: string }) => o.created_at)].sort().reverse(),
    );
    const first = sim.request('GET', path('/operations?limit=3')).body;
    expect(first.operations.map((o: { id: string }) => o.id)).toEqual(
      all.slice(0, 3).map((o: { id: string }) => o.id),
    );
    expect(first.pagination.cursor).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    const second = sim.request(
      'GET',
      path(`/operations?limit=3&cursor=${encodeURIComponent(first.pagination.cursor)}`),
    ).body;
    expect(second.operations.map((o: { id: string }) => o.id)).toEqual(
      all.slice(3, 6).map((o: { id: string }) => o.id),
    );
    const end = sim.request(
      'GET',
      path(`/operations?limit=3&cursor=${encodeURIComponent('2000-01-01T00:00:00.000000Z')}`),
    ).body;
    expect(end.operations).toEqual([]);
  });

  it('defaults to 10 a page', () => {
    const { sim, path, endpointId, settle } = givenProject();
    for (let i = 0; i < 6; i++) {
      sim.request('POST', path(`/endpoints/${endpointId}/restart`));
      settle();
    }
    expect(sim.request('GET', path('/operations')).body.operations).toHaveLength(10);
  });

  it.each(['0', '1001', '-1', '1.5', 'ten', ''])('refuses limit=%s with 400', (limit) => {
    const { sim, path } = givenProject();
    expect(sim.request('GET', path(`/operations?limit=${limit}`)).status).toBe(400);
  });

  it('refuses a cursor that is not a timestamp with 400', () => {
    const { sim, path } = givenProject();
    const response = sim.request('GET', path('/operations?cursor=yesterday'));
    expect(response).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/cursor/) },
    });
  });
});

describe('timestamps in bodies', () => {
  it('are whole seconds, as the real service writes them, while the cursor keeps full precision', () => {
    // given a project whose operations ended at instants with milliseconds
    const { sim, path, endpointId, settle } = givenProject();
    sim.request('POST', path(`/endpoints/${endpointId}/restart`));
    settle();
    expect(
      Object.values(sim.state.projects).some((p) =>
        Object.values(p.operations).some((o) => o.updatedAt % 1000 !== 0),
      ),
    ).toBe(true);
    // when the project, its compute and its operations are read
    const bodies = [
      sim.request('GET', path()).body,
      sim.request('GET', path(`/endpoints/${endpointId}`)).body,
      sim.request('GET', path('/branches')).body,
      sim.request('GET', path('/operations?limit=1')).body,
    ];
    // then every timestamp is in whole seconds
    const stamps = JSON.stringify(bodies).match(/"\d{4}-\d\d-\d\dT[^"]*"/g) ?? [];
    const cursor = bodies[3].pagination.cursor as string;
    const inBody = stamps.filter((s) => s !== JSON.stringify(cursor));
    expect(inBody.length).toBeGreaterThan(5);
    for (const stamp of inBody) expect(stamp).toMatch(/^"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"$/);
    // and the cursor still has six fractional digits
    expect(cursor).toMatch(/\.\d{6}Z$/);
  });
});

describe('a branch being created', () => {
  it('says where it is heading and how it is made, as the real service does', () => {
    // given a settled project
    const { sim, path, settle } = givenProject();
    // when a branch is created
    const created = sim.request('POST', path('/branches'), { branch: { name: 'dev' } }).body;
    // then it is in init, pending ready, made from its parent's data, and not the primary one
    expect(created.branch).toMatchObject({
      current_state: 'init',
      pending_state: 'ready',
      init_source: 'parent-data',
      primary: false,
      default: false,
    });
    // and once ready it has no pending state; the default branch is the primary one
    settle();
    const listed = sim.request('GET', path('/branches')).body.branches;
    const dev = listed.find((b: { id: string }) => b.id === created.branch.id);
    expect(dev.current_state).toBe('ready');
    expect(dev).not.toHaveProperty('pending_state');
    expect(listed.find((b: { default: boolean }) => b.default)).toMatchObject({ primary: true });
  });
});
