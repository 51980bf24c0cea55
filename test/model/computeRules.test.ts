import { describe, expect, it } from 'vitest';
import { ALLOWED_CU, maxConnections, sizeFacts } from '../../src/domain/computeSize.js';
import { givenProject } from '../support/given.js';

describe('compute sizes', () => {
  it('allows 0.25, 0.5, 1..16 and even 18..56, and nothing else', () => {
    expect(ALLOWED_CU).toEqual([
      0.25,
      0.5,
      ...Array.from({ length: 16 }, (_, i) => i + 1),
      ...Array.from({ length: 20 }, (_, i) => 18 + 2 * i),
    ]);
  });

  it.each([
    [0.25, 112],
    [0.5, 225],
    [1, 450],
    [2, 901],
    [3, 1351],
    [4, 1802],
    [5, 2253],
    [6, 2703],
    [7, 3154],
    [8, 3604],
    [9, 4000],
    [56, 4000],
  ])('gives %d CU the spec table max_connections %d', (cu, expected) => {
    expect(maxConnections(cu)).toBe(expected);
  });

  it('gives RAM 4 GB per CU and a Local File Cache of 80% of it; 0.25 and 0.5 CU are shared', () => {
    expect(sizeFacts(2)).toMatchObject({
      vcpu: 2,
      ramBytes: 8 * 1024 ** 3,
      lfcBytes: 0.8 * 8 * 1024 ** 3,
      shared: false,
    });
    expect(sizeFacts(0.5).shared).toBe(true);
  });

  it.each([
    [{ autoscaling_limit_min_cu: 0.3, autoscaling_limit_max_cu: 1 }, /0.3 is not an allowed size/],
    [{ autoscaling_limit_min_cu: 17, autoscaling_limit_max_cu: 17 }, /17 is not an allowed size/],
    [{ autoscaling_limit_min_cu: 4, autoscaling_limit_max_cu: 2 }, /must not exceed/],
    [
      { autoscaling_limit_min_cu: 8, autoscaling_limit_max_cu: 18 },
      /autoscaling is available up to 16 CU/,
    ],
    [{ autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 10 }, /wider than 8 CU/],
    [{ suspend_timeout_seconds: 30 }, /suspend_timeout_seconds must be/],
    // The public schema refuses these before the simulation's own rules see them.
    [{ suspend_timeout_seconds: 604_801 }, /^endpoint.suspend_timeout_seconds: must be <= 604800$/],
    [
      { autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 2, provisioner: 'k8s-pod' },
      /k8s-neonvm/,
    ],
    [{ autoscaling_limit_min_cu: '1' }, /^endpoint.autoscaling_limit_min_cu: must be number$/],
    [{ pooler_mode: 'statement' }, /^endpoint.pooler_mode: must be one of transaction$/],
  ])('refuses a compute with %j (400, naming the problem)', (fields, message) => {
    const { sim, path, branchId } = givenProject();
    const response = sim.request('POST', path('/endpoints'), {
      endpoint: { branch_id: branchId, type: 'read_only', ...fields },
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(message);
  });

  it('accepts fixed sizes up to 56 CU, which never scale to zero', () => {
    const { sim, path, branchId, settle, endpoint } = givenProject();
    const created = sim.request('POST', path('/endpoints'), {
      endpoint: {
        branch_id: branchId,
        type: 'read_only',
        autoscaling_limit_min_cu: 56,
        autoscaling_limit_max_cu: 56,
      },
    });
    expect(created.status).toBe(201);
    settle();
    sim.advance('2h');
    expect(endpoint(created.body.endpoint.id).currentState).toBe('active');
  });

  it('fixes the size when only one limit is given', () => {
    const { sim, path, branchId } = givenProject();
    const created = sim.request('POST', path('/endpoints'), {
      endpoint: { branch_id: branchId, type: 'read_only', autoscaling_limit_max_cu: 4 },
    });
    expect(created.body.endpoint).toMatchObject({
      autoscaling_limit_min_cu: 4,
      autoscaling_limit_max_cu: 4,
    });
  });
});

describe('plans', () => {
  it('the free plan runs 0.25 CU computes with the default timeout only', () => {
    const { sim, path, branchId } = givenProject({ profile: { plan: 'free' } });
    const big = sim.request('POST', path('/endpoints'), {
      endpoint: { branch_id: branchId, type: 'read_only', autoscaling_limit_max_cu: 1 },
    });
    expect(big.status).toBe(400);
    expect(big.body.message).toMatch(/free plan.*paid plan/);
    const timeout = sim.request('POST', path('/endpoints'), {
      endpoint: { branch_id: branchId, type: 'read_only', suspend_timeout_seconds: 3600 },
    });
    expect(timeout.body.message).toMatch(/free plan uses the default scale-to-zero timeout/);
    expect(
      sim.request('POST', path('/endpoints'), {
        endpoint: { branch_id: branchId, type: 'read_only' },
      }).status,
    ).toBe(201);
  });
});

describe('scale to zero', () => {
  it('never suspends a compute with suspend_timeout_seconds -1', () => {
    const { sim, path, endpointId, endpoint } = givenProject();
    expect(
      sim.request('PATCH', path(`/endpoints/${endpointId}`), {
        endpoint: { suspend_timeout_seconds: -1 },
      }).status,
    ).toBe(200);
    sim.advance('7d');
    expect(endpoint().currentState).toBe('active');
  });

  it('follows a changed timeout without restarting, counting from the last activity', () => {
    const { sim, path, endpointId, endpoint, settle } = givenProject();
    const activeSince = endpoint().idleSince as number;
    sim.request('PATCH', path(`/endpoints/${endpointId}`), {
      endpoint: { suspend_timeout_seconds: 3600 },
    });
    settle();
    sim.advanceTo(activeSince + 3_599_000);
    expect(endpoint().currentState).toBe('active');
    sim.advanceTo(activeSince + 3_601_000);
    expect(endpoint().pendingState ?? endpoint().currentState).toBe('idle');
  });

  it('restarts the idle clock with every connection and the end of its work, and stays up while a statement runs', () => {
    const { sim, endpointId, endpoint, project } = givenProject();
    sim.advance('4m');
    const connection = sim.connect(endpointId);
    expect(connection.query('1h')).toEqual({ ok: true });
    sim.advance('1h');
    const doneAt = sim.now();
    expect(endpoint().currentState).toBe('active');
    expect(connection.activity).toBe('idle');
    sim.advance('4m59s');
    expect(endpoint().currentState).toBe('active');
    sim.advance('2s');
    expect(endpoint().pendingState ?? endpoint().currentState).toBe('idle');
    const suspend = Object.values(project().operations).find((o) => o.action === 'suspend_compute');
    expect(suspend?.createdAt).toBe(doneAt + 300_000);
  });

  it('does not stay up for an idle connection: it suspends the timeout after the login', () => {
    const { sim, endpointId, endpoint } = givenProject();
    sim.advance('4m');
    const connectedAt = sim.now();
    const connection = sim.connect(endpointId);
    sim.advance('4m59s');
    expect(endpoint().currentState).toBe('active');
    sim.advance('2s');
    expect(endpoint().pendingState ?? endpoint().currentState).toBe('idle');
    expect(connection.state).toBe('dropped');
    expect(connection.error?.sqlstate).toBe('57P01');
    expect(endpoint().suspendedAt ?? sim.now()).toBeGreaterThanOrEqual(connectedAt + 300_000);
  });
});

describe('one read-write compute per branch', () => {
  it('refuses a second read_write compute on a branch with 409, and allows any number of read replicas', () => {
    const { sim, path, branchId, settle } = givenProject();
    const second = sim.request('POST', path('/endpoints'), {
      endpoint: { branch_id: branchId, type: 'read_write' },
    });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      code: '', // the real service's code (the schema's default); the message says why
      message: expect.stringMatching(/already has a read_write endpoint/),
    });
    for (let i = 0; i < 3; i++) {
      const replica = sim.request('POST', path('/endpoints'), {
        endpoint: { branch_id: branchId, type: 'read_only' },
      });
      expect(replica.status).toBe(201);
      expect(replica.body.endpoint.type).toBe('read_only');
      settle(); // each replica's start_compute locks the branch until it finishes
    }
  });

  it('refuses moving a read_write compute onto a branch that has one (409)', () => {
    const { sim, path, settle } = givenProject();
    const branch = sim.request('POST', path('/branches'), { endpoints: [{ type: 'read_write' }] });
    settle();
    const moved = sim.request('PATCH', path(`/endpoints/${branch.body.endpoints[0].id}`), {
      endpoint: { branch_id: sim.state.projects[branch.body.branch.project_id]!.defaultBranchId },
    });
    expect(moved.status).toBe(409);
  });
});
