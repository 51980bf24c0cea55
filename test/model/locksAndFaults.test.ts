import { describe, expect, it } from 'vitest';
import { givenProject } from '../support/given.js';
import { Simulation, metricsOf } from '../../src/index.js';
import { LOCKED_MESSAGE } from '../../src/domain/rejection.js';

describe('locks (423)', () => {
  it('refuses requests on a compute while an operation on it is unfinished, and accepts them after', () => {
    const { sim, endpointId, path, settle } = givenProject();
    expect(sim.request('POST', path(`/endpoints/${endpointId}/restart`)).status).toBe(200);
    const again = sim.request('POST', path(`/endpoints/${endpointId}/restart`));
    expect(again.status).toBe(423);
    expect(again.body).toMatchObject({
      code: '',
      message: LOCKED_MESSAGE,
      detail: expect.stringMatching(/^suspend_compute [0-9a-f-]+ is running$/),
    });
    expect(
      sim.request('PATCH', path(`/endpoints/${endpointId}`), {
        endpoint: { autoscaling_limit_max_cu: 1 },
      }).status,
    ).toBe(423);
    settle();
    expect(sim.request('POST', path(`/endpoints/${endpointId}/restart`)).status).toBe(200);
  });

  it('refuses branching from a branch being created, right after the project (create_timeline runs), with 422', () => {
    const sim = new Simulation();
    const project = sim.request('POST', '/projects', { project: {} }).body.project;
    const refused = sim.request('POST', `/projects/${project.id}/branches`);
    expect(refused).toMatchObject({ status: 422, body: { message: 'branch not ready yet' } });
  });

  it('records each 423 in the log without changing state, and metrics count them', () => {
    const { sim, endpointId, path, projectId, settle } = givenProject();
    sim.request('POST', path(`/endpoints/${endpointId}/restart`));
    const before = sim.state;
    const length = sim.log.length;
    expect(sim.request('POST', path(`/endpoints/${endpointId}/suspend`)).status).toBe(423);
    expect(sim.request('GET', path('/operations')).status).toBe(200);
    expect(sim.state).toBe(before);
    const records = [...sim.log].slice(length).filter((e) => e.type === 'RequestLocked');
    expect(records).toEqual([
      expect.objectContaining({
        projectId,
        endpointId,
        method: 'POST',
        route: '/projects/{project_id}/endpoints/{endpoint_id}/suspend',
      }),
    ]);
    sim.request('PATCH', path(`/endpoints/${endpointId}`), {
      endpoint: { suspend_timeout_seconds: 60 },
    });
    settle();
    const metrics = metricsOf(sim.log);
    expect(metrics.fleet.lockedRequests).toBe(2);
    expect(metrics.computes.find((c) => c.endpointId === endpointId)?.lockedRequests).toBe(2);
    const replayed = Simulation.fromJSONL(sim.toJSONL()).simulation;
    expect(replayed.state).toEqual(sim.state);
  });

  it('a recorded 423 leaves every later random draw as it was, live and after a replay', () => {
    const later = (withLock: boolean) => {
      const { sim, endpointId, path, settle } = givenProject();
      sim.request('POST', path(`/endpoints/${endpointId}/restart`));
      if (withLock)
        expect(sim.request('POST', path(`/endpoints/${endpointId}/restart`)).status).toBe(423);
      settle();
      const continued = (target: Simulation) => {
        const created = target.request('POST', '/projects', { project: {} }).body;
        target.runUntilIdle();
        const operations = Object.values(target.state.projects[created.project.id]!.operations);
        return {
          ids: [created.project.id, created.branch.id],
          ends: operations.map((o) => o.updatedAt),
        };
      };
      const replayed = Simulation.fromJSONL(sim.toJSONL()).simulation;
      return { live: continued(sim), replayed: continued(replayed) };
    };
    const without = later(false);
    const withLock = later(true);
    expect(withLock.live).toEqual(without.live);
    expect(withLock.replayed).toEqual(without.live);
  });

  it('records the branch a refused request named in its body', () => {
    const { sim, endpointId, path, projectId, branchId } = givenProject();
    sim.request('POST', path(`/endpoints/${endpointId}/restart`));
    const refused = sim.request('POST', path('/endpoints'), {
      endpoint: { branch_id: branchId, type: 'read_only' },
    });
    expect(refused.status).toBe(423);
    expect(sim.log.get(sim.log.length - 1)).toMatchObject({
      type: 'RequestLocked',
      projectId,
      branchId,
    });
  });

  it('lets GETs through while an operation is unfinished', () => {
    const { sim, endpointId, path } = givenProject();
    sim.request('POST', path(`/endpoints/${endpointId}/restart`));
    expect(sim.request('GET', path(`/endpoints/${endpointId}`)).status).toBe(200);
    expect(sim.request('GET', path('/operations')).status).toBe(200);
  });

  it('does not lock on a running availability check (on an active compute, where no start follows it)', () => {
    const { sim, endpointId, path, project } = givenProject();
    // An open transaction keeps the compute active, so the check runs alone.
    expect(sim.connect(endpointId).begin()).toEqual({ ok: true });
    const branch = project().branches[project().defaultBranchId]!;
    sim.advanceTo(branch.nextCheckAt as number);
    const running = Object.values(project().operations)
      .filter((o) => o.status === 'running')
      .map((o) => o.action);
    expect(running).toEqual(['check_availability']);
    expect(
      sim.request('PATCH', path(`/endpoints/${endpointId}`), {
        endpoint: { suspend_timeout_seconds: 600 },
      }).status,
    ).toBe(200);
  });
});

describe('operation failures', () => {
  it('fails, retries at retry_at with a growing failures_count, and finishes', () => {
    const sim = new Simulation({
      seed: 2,
      profile: {
        faults: { create_timeline: { failureRate: 1, maxRetries: 2, retryDelayMs: 10_000 } },
      },
    });
    const created = sim.request('POST', '/projects', { project: {} });
    const timeline = () =>
      sim.request(
        'GET',
        `/projects/${created.body.project.id}/operations/${created.body.operations[0].id}`,
      ).body.operation;
    sim.runUntil(
      (s) => Object.values(Object.values(s.projects)[0]!.operations)[0]!.status === 'failed',
    );
    expect(timeline()).toMatchObject({
      status: 'failed',
      failures_count: 1,
      retry_at: expect.any(String),
      error: expect.stringMatching(/simulated failure/),
    });
    sim.runUntilIdle();
    expect(timeline()).toMatchObject({ status: 'error', failures_count: 3 });
    expect(timeline()).not.toHaveProperty('retry_at');
    // the chain behind it is cancelled and the compute is left where it was
    const start = sim.request(
      'GET',
      `/projects/${created.body.project.id}/operations/${created.body.operations[1].id}`,
    ).body.operation;
    expect(start.status).toBe('cancelled');
  });

  it('finishes on the attempt after its retries when its faults never end in error', () => {
    const sim = new Simulation({
      seed: 2,
      profile: {
        faults: {
          create_timeline: {
            failureRate: 1,
            maxRetries: 2,
            retryDelayMs: 10_000,
            endsInError: false,
          },
        },
      },
    });
    const created = sim.request('POST', '/projects', { project: {} });
    sim.runUntilIdle();
    const ops = sim.request('GET', `/projects/${created.body.project.id}/operations?limit=100`).body
      .operations as { action: string; status: string; failures_count: number }[];
    expect(ops.find((o) => o.action === 'create_timeline')).toMatchObject({
      status: 'finished',
      failures_count: 2,
    });
    expect(ops.every((o) => o.status === 'finished')).toBe(true);
  });

  it('recovers when a retry succeeds', () => {
    let retried = 0;
    for (let seed = 1; seed <= 10; seed++) {
      const sim = new Simulation({
        seed,
        profile: {
          faults: { start_compute: { failureRate: 0.5, maxRetries: 20, retryDelayMs: 1_000 } },
        },
      });
      const created = sim.request('POST', '/projects', { project: {} });
      sim.runUntilIdle();
      const ops = sim.request('GET', `/projects/${created.body.project.id}/operations?limit=100`)
        .body.operations;
      expect(ops.every((o: { status: string }) => o.status === 'finished')).toBe(true);
      if (ops.some((o: { failures_count: number }) => o.failures_count > 0)) retried++;
    }
    expect(retried).toBeGreaterThan(0);
  });

  it('refuses connections waiting for a compute whose start gave up (08006)', () => {
    const sim = new Simulation({
      seed: 1,
      profile: { faults: { start_compute: { failureRate: 1, maxRetries: 0, retryDelayMs: 0 } } },
    });
    const created = sim.request('POST', '/projects', { project: {} });
    const connection = sim.connect(created.body.endpoints[0].id);
    expect(connection.state).toBe('connecting');
    sim.runUntilIdle();
    expect(connection.state).toBe('refused');
    expect(connection.error?.sqlstate).toBe('08006');
    expect(
      sim.state.projects[created.body.project.id]!.endpoints[created.body.endpoints[0].id],
    ).toMatchObject({ currentState: 'init' });
  });
});
