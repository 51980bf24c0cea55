/**
 * Edge cases reviews found: chains that lose an operation, starts and suspends that give up, ids
 * that name built-in properties, wakes during a detach or reattach, failures that must not refuse
 * clients, duplicate wakes, updates of idle computes, computes created disabled, and run loops that
 * could never end.
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { givenProject } from '../support/given.js';

const actions = (ops: readonly { action: string; status?: string }[]) =>
  ops.map((o) => `${o.action}:${o.status}`);
const NO_CHECKS = { availabilityChecks: { intervalMs: 0, backoff: 1, maxIntervalMs: 0 } };

describe('chains', () => {
  it('deleting a compute whose start is running lets the next compute of the chain start', () => {
    const { sim, path, project, settle } = givenProject();
    const created = sim.request('POST', path('/branches'), {
      endpoints: [{ type: 'read_write' }, { type: 'read_only' }],
    }).body;
    const [first, second] = created.endpoints.map((e: { id: string }) => e.id);
    sim.runUntil(
      (s) =>
        s.projects[project().id]!.endpoints[first]!.pendingState === 'active' &&
        Object.values(s.projects[project().id]!.operations).some(
          (o) => o.endpointId === first && o.status === 'running',
        ),
    );
    expect(sim.request('DELETE', path(`/endpoints/${first}`)).status).toBe(200);
    settle();
    expect(project().endpoints[second]!.currentState).toBe('active');
    expect(Object.keys(project().pendingOperations)).toEqual([]);
    expect(sim.request('POST', path(`/endpoints/${second}/restart`)).status).toBe(200);
  });

  it('deleting a compute whose start is still scheduling skips it when the chain reaches it', () => {
    const { sim, path, project, settle } = givenProject();
    const created = sim.request('POST', path('/branches'), {
      endpoints: [{ type: 'read_write' }, { type: 'read_only' }],
    }).body;
    const [first, second] = created.endpoints.map((e: { id: string }) => e.id);
    expect(sim.request('DELETE', path(`/endpoints/${first}`)).status).toBe(200);
    settle();
    expect(project().endpoints[second]!.currentState).toBe('active');
    expect(project().branches[created.branch.id]!.currentState).toBe('ready');
  });
});

describe('operations that give up', () => {
  it('a first start cancelled by a failed create_timeline leaves the compute startable, by request or by a connection', () => {
    const sim = new Simulation({
      seed: 1,
      profile: { faults: { create_timeline: { failureRate: 1, maxRetries: 0, retryDelayMs: 0 } } },
    });
    const created = sim.request('POST', '/projects', { project: {} }).body;
    const endpointId = created.endpoints[0].id;
    sim.runUntilIdle();
    const endpoint = () => sim.state.projects[created.project.id]!.endpoints[endpointId]!;
    expect(endpoint()).toMatchObject({ currentState: 'init' });
    expect(endpoint().pendingState).toBeUndefined();
    const connection = sim.connect(endpointId);
    expect(connection.state).toBe('connecting');
    sim.runUntil((s) => s.connections[connection.id]!.status !== 'connecting');
    expect(connection.state).toBe('open');
    expect(endpoint().currentState).toBe('active');
  });

  it('a suspend that gives up opens the connections that waited for it, and scale to zero tries again later, backing off', () => {
    const { sim, path, endpointId, endpoint, project } = givenProject({
      profile: { faults: { suspend_compute: { failureRate: 1, maxRetries: 0, retryDelayMs: 0 } } },
    });
    const suspends = () =>
      Object.values(project().operations).filter((o) => o.action === 'suspend_compute').length;
    sim.request('POST', path(`/endpoints/${endpointId}/suspend`));
    const connection = sim.connect(endpointId);
    expect(connection.state).toBe('connecting');
    sim.runUntil((s) => Object.keys(s.projects[project().id]!.pendingOperations).length === 0);
    expect(connection.state).toBe('open');
    expect(endpoint()).toMatchObject({ currentState: 'active', failedSuspends: 1 });
    connection.close();
    sim.advance('9m59s');
    expect(suspends()).toBe(1);
    sim.advance('2s');
    expect(suspends()).toBe(2);
    sim.runUntil((s) => Object.keys(s.projects[project().id]!.pendingOperations).length === 0);
    sim.advance('19m59s');
    expect(suspends()).toBe(2);
    sim.advance('2s');
    expect(suspends()).toBe(3);
  });

  it('runUntilIdle gives up with a clear error when an always-failing suspend keeps scale to zero busy', () => {
    const sim = new Simulation({
      seed: 1,
      profile: {
        ...NO_CHECKS,
        faults: { suspend_compute: { failureRate: 1, maxRetries: 0, retryDelayMs: 0 } },
      },
    });
    sim.request('POST', '/projects', { project: {} });
    expect(() => sim.runUntilIdle()).toThrow(/still busy after 30d of virtual time/);
    const suspends = [...sim.log].filter(
      (e) => e.type === 'OperationCreated' && e.action === 'suspend_compute',
    ).length;
    expect(suspends).toBeGreaterThan(20);
    expect(suspends).toBeLessThan(45);
  });
});

describe('ids that name built-in properties', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'treats %s as an id that does not exist',
    (id) => {
      const { sim, path, branchId, endpointId } = givenProject();
      expect(sim.request('GET', `/projects/${id}`).status).toBe(404);
      expect(sim.request('GET', path(`/endpoints/${id}`)).status).toBe(404);
      expect(sim.request('GET', path(`/branches/${id}`)).status).toBe(404);
      expect(sim.request('GET', path(`/operations/${id}`)).status).toBe(404);
      expect(sim.request('DELETE', path(`/branches/${id}`)).status).toBe(204);
      // in a body, ids outside ^[a-z0-9-]{1,60}$ are a 400; `constructor` passes it and is not found
      const missing = [400, 404];
      expect(missing).toContain(
        sim.request('POST', path('/endpoints'), { endpoint: { branch_id: id, type: 'read_only' } })
          .status,
      );
      expect(missing).toContain(
        sim.request('POST', path('/branches'), { branch: { parent_id: id } }).status,
      );
      expect(missing).toContain(
        sim.request('PATCH', path(`/endpoints/${endpointId}`), { endpoint: { branch_id: id } })
          .status,
      );
      expect(sim.connect(id).error?.sqlstate).toBe('08001');
      expect(branchId).toBeDefined();
      expect(Simulation.fromJSONL(sim.toJSONL()).simulation.state).toEqual(sim.state);
    },
  );
});

describe('tenant detach', () => {
  it('a connection during a running tenant_detach waits for it, reattaches, then wakes the compute', () => {
    const { sim, project, endpointId, projectId } = givenProject({ profile: NO_CHECKS });
    sim.runUntil(
      (s) =>
        Object.values(s.projects[projectId]!.operations).some(
          (o) => o.action === 'tenant_detach' && o.status === 'running',
        ),
      {
        background: true,
      },
    );
    const connection = sim.connect(endpointId);
    expect(actions(Object.values(project().operations).slice(-3))).toEqual([
      'tenant_detach:running',
      'tenant_reattach:scheduling',
      'start_compute:scheduling',
    ]);
    sim.runUntil((s) => Object.keys(s.projects[projectId]!.pendingOperations).length === 0);
    expect(project().detached).toBe(false);
    expect(connection.state).toBe('open');
  });

  it.each([
    ['after it finished', 'finished'],
    ['while it runs', 'running'],
  ])(
    'work recorded %s, while the reattach is unfinished, waits for the reattach too',
    (_, detachStatus) => {
      const { sim, path, branchId, endpointId, project, projectId, settle } = givenProject({
        profile: { ...NO_CHECKS, tenantDetachAfterMs: 60_000 },
      });
      const second: string = sim.request('POST', path('/endpoints'), {
        endpoint: { branch_id: branchId, type: 'read_only' },
      }).body.endpoint.id;
      sim.runUntilIdle();
      sim.runUntil(
        (s) =>
          Object.values(s.projects[projectId]!.operations).some(
            (o) => o.action === 'tenant_detach' && o.status === detachStatus,
          ),
        { background: true },
      );
      const first = sim.connect(endpointId);
      const other = sim.connect(second);
      const starts = Object.values(project().operations).filter(
        (o) => o.action === 'start_compute',
      );
      expect(actions(starts.slice(-2))).toEqual([
        'start_compute:scheduling',
        'start_compute:scheduling',
      ]);
      settle();
      expect([first.state, other.state]).toEqual(['open', 'open']);
      const attachedAt = [...sim.log].findLast(
        (e) => e.type === 'TenantAttachmentChanged' && e.attached,
      )!.at;
      const wakes = [...sim.log].filter(
        (e) => e.type === 'ComputeStateChanged' && e.pendingState === 'active' && e.at > 120_000,
      );
      expect(wakes.map((e) => e.type === 'ComputeStateChanged' && e.endpointId).sort()).toEqual(
        [endpointId, second].sort(),
      );
      for (const wake of wakes) expect(wake.at).toBeGreaterThanOrEqual(attachedAt);
    },
  );

  it('a tenant_detach that gives up leaves storage attached and lets the work queued behind it run', () => {
    const { sim, endpointId, project, projectId } = givenProject({
      profile: {
        ...NO_CHECKS,
        faults: { tenant_detach: { failureRate: 1, maxRetries: 0, retryDelayMs: 0 } },
      },
    });
    sim.runUntil(
      (s) =>
        Object.values(s.projects[projectId]!.operations).some(
          (o) => o.action === 'tenant_detach' && o.status === 'running',
        ),
      { background: true },
    );
    const connection = sim.connect(endpointId);
    sim.runUntil((s) => Object.keys(s.projects[projectId]!.pendingOperations).length === 0);
    expect(connection.state).toBe('open');
    expect(project().detached).toBe(false);
    expect(actions(Object.values(project().operations).slice(-3))).toEqual([
      'tenant_detach:error',
      'tenant_reattach:cancelled',
      'start_compute:finished',
    ]);
  });
});

describe('failures that do not stop a compute from starting', () => {
  it('a failed availability check wakes the compute for a client waiting on its queued start', () => {
    const { sim, endpointId, project, projectId } = givenProject({
      profile: {
        tenantDetachAfterMs: 0,
        faults: { check_availability: { failureRate: 1, maxRetries: 0, retryDelayMs: 0 } },
      },
    });
    sim.runUntil(
      (s) =>
        Object.values(s.projects[projectId]!.operations).some(
          (o) => o.action === 'check_availability' && o.status === 'running',
        ),
      { background: true },
    );
    expect(project().endpoints[endpointId]!.currentState).toBe('idle');
    const connection = sim.connect(endpointId);
    sim.runUntil((s) => Object.keys(s.projects[projectId]!.pendingOperations).length === 0);
    expect(connection.state).toBe('open');
    expect(actions(Object.values(project().operations).slice(-3))).toEqual([
      'check_availability:error',
      'start_compute:cancelled',
      'start_compute:finished',
    ]);
  });

  it('a failed apply_config on an idle compute wakes it for the client waiting on it', () => {
    const { sim, path, endpointId, endpoint, settle } = givenProject({
      profile: {
        ...NO_CHECKS,
        faults: { apply_config: { failureRate: 1, maxRetries: 0, retryDelayMs: 0 } },
      },
    });
    sim.runUntilIdle();
    sim.request('PATCH', path(`/endpoints/${endpointId}`), {
      endpoint: { autoscaling_limit_max_cu: 2 },
    });
    const connection = sim.connect(endpointId);
    settle();
    expect(connection.state).toBe('open');
    expect(endpoint().currentState).toBe('active');
  });

  it('a failed check leaves alone a compute another chain is starting', () => {
    const sim = new Simulation({
      seed: 1,
      profile: {
        latency: { wake_compute: [10_000, 10_000] },
        faults: { check_availability: { failureRate: 1, maxRetries: 0, retryDelayMs: 0 } },
        availabilityChecks: { intervalMs: 3_600_000, backoff: 1, maxIntervalMs: 3_600_000 },
        tenantDetachAfterMs: 0,
      },
    });
    const created = sim.request('POST', '/projects', { project: {} }).body;
    const endpointId: string = created.endpoints[0].id;
    const endpoint = () => sim.state.projects[created.project.id]!.endpoints[endpointId]!;
    sim.runUntilIdle();
    sim.advanceTo(
      sim.state.projects[created.project.id]!.branches[created.branch.id]!.nextCheckAt! - 2_000,
    );
    const connection = sim.connect(endpointId);
    sim.advance('8s');
    const check = Object.values(sim.state.projects[created.project.id]!.operations).find(
      (o) => o.action === 'check_availability',
    );
    expect(check?.status).toBe('error');
    expect(endpoint()).toMatchObject({ currentState: 'idle', pendingState: 'active' });
    expect(connection.state).toBe('connecting');
    sim.advance('3s');
    expect(connection.state).toBe('open');
  });

  it.each([
    ['apply_config (a move to another branch)', 'apply_config'],
    ['create_branch', 'create_branch'],
  ])(
    'a failed %s clears the pending state even while a check runs on the compute',
    (_, failing) => {
      const sim = new Simulation({
        seed: 1,
        profile: {
          faults: { [failing]: { failureRate: 1, maxRetries: 0, retryDelayMs: 500 } },
          availabilityChecks: { intervalMs: 60_000, backoff: 1, maxIntervalMs: 60_000 },
          latency: { check_availability: [20_000, 20_000], create_branch: [70_000, 70_000] },
          tenantDetachAfterMs: 0,
        },
      });
      const created = sim.request('POST', '/projects', { project: {} }).body;
      const projectId: string = created.project.id;
      const project = () => sim.state.projects[projectId]!;
      let endpointId: string = created.endpoints[0].id;
      if (failing === 'apply_config') {
        sim.runUntilIdle();
        const target = sim.request('POST', `/projects/${projectId}/branches`).body.branch.id;
        sim.advance('20s');
        sim.connect(endpointId); // keeps the compute up until the move
        sim.runUntil(
          (s) =>
            Object.values(s.projects[projectId]!.operations).some(
              (o) =>
                o.action === 'check_availability' &&
                o.status === 'running' &&
                o.endpointId === endpointId,
            ),
          { background: true },
        );
        sim.request('PATCH', `/projects/${projectId}/endpoints/${endpointId}`, {
          endpoint: { branch_id: target },
        });
      } else {
        sim.advance('20s');
        endpointId = sim.request('POST', `/projects/${projectId}/branches`, {
          endpoints: [{ type: 'read_write' }],
        }).body.endpoints[0].id;
        sim.advance('75s');
      }
      sim.advance('30s');
      expect(project().endpoints[endpointId]!.pendingState).toBeUndefined();
      const connection = sim.connect(endpointId);
      sim.advance('1m');
      expect(connection.state).toBe('open');
    },
  );

  it('a failed start refuses its waiting clients even while a suspend that changes nothing runs', () => {
    const { sim, path, endpointId } = givenProject({
      profile: {
        ...NO_CHECKS,
        latency: { suspend_compute: [5_000, 5_000], wake_compute: [100, 100] },
        faults: { start_compute: { failureRate: 1, maxRetries: 0, retryDelayMs: 0 } },
      },
    });
    sim.runUntilIdle();
    expect(sim.request('POST', path(`/endpoints/${endpointId}/suspend`)).status).toBe(200);
    const connection = sim.connect(endpointId);
    sim.runUntilIdle();
    expect(connection.state).toBe('refused');
    expect(connection.error?.sqlstate).toBe('08006');
  });

  it('a failed start still refuses the clients waiting for it (08006)', () => {
    const { sim, endpointId } = givenProject({
      profile: {
        ...NO_CHECKS,
        faults: { start_compute: { failureRate: 1, maxRetries: 0, retryDelayMs: 0 } },
      },
    });
    sim.runUntilIdle();
    const connection = sim.connect(endpointId);
    sim.runUntilIdle();
    expect(connection.state).toBe('refused');
    expect(connection.error?.sqlstate).toBe('08006');
  });
});

describe('wakes', () => {
  it('many connections to an idle compute record one start', () => {
    const { sim, endpointId, project } = givenProject();
    sim.runUntilIdle();
    const before = Object.keys(project().operations).length;
    const connections = [sim.connect(endpointId), sim.connect(endpointId), sim.connect(endpointId)];
    expect(actions(Object.values(project().operations).slice(before))).toEqual([
      'start_compute:running',
    ]);
    sim.advance('2s');
    expect(connections.map((c) => c.state)).toEqual(['open', 'open', 'open']);
  });

  it('many connections to a detached project record one reattach and one start', () => {
    const { sim, endpointId, project } = givenProject({ profile: NO_CHECKS });
    sim.advance('8d');
    expect(project().detached).toBe(true);
    const before = Object.keys(project().operations).length;
    sim.connect(endpointId);
    sim.connect(endpointId);
    expect(actions(Object.values(project().operations).slice(before))).toEqual([
      'tenant_reattach:running',
      'start_compute:scheduling',
    ]);
  });

  it('a connection during a resize restart opens after the restart, with no second start', () => {
    const { sim, path, endpointId, project, settle } = givenProject();
    sim.request('PATCH', path(`/endpoints/${endpointId}`), {
      endpoint: { autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 1 },
    });
    sim.runUntil((s) => s.projects[project().id]!.endpoints[endpointId]!.pendingState === 'idle');
    const connection = sim.connect(endpointId);
    settle();
    expect(connection.state).toBe('open');
    expect(
      Object.values(project().operations).filter((o) => o.action === 'start_compute'),
    ).toHaveLength(2);
  });

  it('a connection to an idle compute being updated waits through the brief activation and the suspend, then wakes it', () => {
    const { sim, path, endpointId, endpoint, settle } = givenProject();
    sim.runUntilIdle();
    sim.request('PATCH', path(`/endpoints/${endpointId}`), {
      endpoint: { suspend_timeout_seconds: 600 },
    });
    const connection = sim.connect(endpointId);
    settle();
    expect(connection.state).toBe('open');
    expect(endpoint().currentState).toBe('active');
  });
});

describe('computes created disabled', () => {
  it('are not started, whether created with a project, a branch or on their own', () => {
    const sim = new Simulation();
    const created = sim.request('POST', '/projects', {
      project: { default_endpoint_settings: {} },
    }).body;
    const projectId = created.project.id;
    sim.runUntilIdle();
    const branch = sim.request('POST', `/projects/${projectId}/branches`, {
      endpoints: [{ type: 'read_write' }],
    }).body;
    expect(branch.endpoints[0].current_state).toBe('init');
    const disabledProject = sim.request('POST', '/projects', { project: {} }).body;
    expect(disabledProject.endpoints[0].disabled).toBe(false);
    // the create-branch request has no `disabled` field in the schema; PATCH then create a disabled one
    // (once the branch is created: until then its operations lock the whole project)
    sim.runUntil((s) => Object.keys(s.projects[projectId]!.pendingOperations).length === 0);
    const alone = sim.request('POST', `/projects/${projectId}/endpoints`, {
      endpoint: { branch_id: created.branch.id, type: 'read_only', disabled: true },
    }).body;
    expect(alone.endpoint).toMatchObject({ current_state: 'idle', disabled: true });
    expect(alone.operations).toEqual([]);
  });
});

describe('run loops', () => {
  it('runUntilIdle says so, within a bounded virtual time, when checks keep waking computes', () => {
    const sim = new Simulation({
      seed: 3,
      profile: {
        availabilityChecks: { intervalMs: 400_000, backoff: 1, maxIntervalMs: 400_000 },
        tenantDetachAfterMs: 0,
      },
    });
    const projectId: string = sim.request('POST', '/projects', { project: {} }).body.project.id;
    for (let i = 0; i < 2; i++) {
      sim.runUntil((s) => Object.keys(s.projects[projectId]!.pendingOperations).length === 0);
      sim.advance('130s');
      sim.request('POST', `/projects/${projectId}/branches`, {
        endpoints: [{ type: 'read_write' }],
      });
    }
    const start = sim.now();
    expect(() => sim.runUntilIdle({ within: '2d' })).toThrow(/still busy after 2d/);
    expect(sim.now() - start).toBeLessThanOrEqual(2 * 86_400_000);
    expect(sim.now() - start).toBeGreaterThan(2 * 86_400_000 - 400_000);
    sim.advance('1h');
  });

  it('runUntilIdle refuses a bad `within` before running anything', () => {
    const { sim } = givenProject();
    sim.request('POST', `/projects/${Object.keys(sim.state.projects)[0]!}/branches`);
    const length = sim.log.length;
    expect(() => sim.runUntilIdle({ within: 'soon' })).toThrow(/soon/);
    expect(sim.log.length).toBe(length);
  });

  it('runUntil refuses to wait on background work alone, unless asked to', () => {
    const { sim } = givenProject();
    expect(() => sim.runUntil(() => false, { stepLimit: 1_000 })).toThrow(
      /only background work is pending/,
    );
    const before = sim.now();
    sim.runUntil(
      (s) =>
        Object.values(Object.values(s.projects)[0]!.operations).some(
          (o) => o.action === 'check_availability',
        ),
      { background: true },
    );
    expect(sim.now() - before).toBeGreaterThan(5 * 3_600_000);
  });

  it.each([
    [{ availabilityChecks: { intervalMs: 1000.5, backoff: 2, maxIntervalMs: 5000 } }, /whole ms/],
    [{ availabilityChecks: { intervalMs: 1000, backoff: 2, maxIntervalMs: Infinity } }, /whole ms/],
    [
      { availabilityChecks: { intervalMs: 1000, backoff: Number.NaN, maxIntervalMs: 5000 } },
      /backoff/,
    ],
    [
      { releases: { epochMs: 0, first: 1, intervalMs: 0.5 } },
      /releases\.intervalMs must be whole ms/,
    ],
    [{ tenantDetachAfterMs: -1 }, /tenantDetachAfterMs/],
  ])('the profile refuses %j, whose log could not be replayed', (profile, message) => {
    expect(() => new Simulation({ profile: profile as never })).toThrow(message);
  });
});

describe('background work under failures', () => {
  it('a tenant_detach that fails does not retry at once, forever', () => {
    const { sim, project } = givenProject({
      profile: {
        ...NO_CHECKS,
        faults: { tenant_detach: { failureRate: 1, maxRetries: 0, retryDelayMs: 0 } },
      },
    });
    sim.advance('9d');
    expect(
      Object.values(project().operations).filter((o) => o.action === 'tenant_detach'),
    ).toHaveLength(1);
  });

  it('an availability check does not start a compute whose start is already queued', () => {
    const { sim, endpointId, project, projectId } = givenProject({
      profile: {
        availabilityChecks: { intervalMs: 600_000, backoff: 1, maxIntervalMs: 600_000 },
        tenantDetachAfterMs: 600_000,
      },
    });
    sim.runUntil(
      (s) =>
        Object.values(s.projects[projectId]!.operations).some((o) => o.action === 'tenant_detach'),
      { background: true },
    );
    sim.connect(endpointId);
    sim.advance('15m');
    const starts = Object.values(project().operations).filter(
      (o) => o.action === 'start_compute' && o.createdAt > project().createdAt + 60_000,
    );
    const overlapping = starts.filter((a) =>
      starts.some((b) => b !== a && a.createdAt <= b.updatedAt && b.createdAt <= a.updatedAt),
    );
    expect(overlapping).toEqual([]);
  });
});
