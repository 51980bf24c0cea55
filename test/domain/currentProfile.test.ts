/**
 * Plans and limits (fidelity.md, audit 2026-11-23): the seed spec's values stay the default; today's
 * values of the real service come as the named profile `current`. The expected numbers are the
 * public documentation's table (connect/connection-pooling), not the implementation's formula.
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { givenProject } from '../support/given.js';

/** max_connections per size, as the documentation lists it today. */
const DOCUMENTED_TODAY: ReadonlyArray<readonly [cu: number, maxConnections: number]> = [
  [0.25, 104],
  [0.5, 209],
  [1, 419],
  [2, 839],
  [3, 1258],
  [4, 1678],
  [5, 2098],
  [6, 2517],
  [7, 2937],
  [8, 3357],
  [9, 4000],
  [16, 4000],
  [56, 4000],
];

/** The seed spec's table. */
const SEED_TABLE: ReadonlyArray<readonly [cu: number, maxConnections: number]> = [
  [0.25, 112],
  [0.5, 225],
  [1, 450],
  [2, 901],
  [9, 4000],
];

/** How many direct clients a compute admits before 53300. */
function admitted(sim: Simulation, endpointId: string, upTo: number): number {
  let open = 0;
  for (let i = 0; i < upTo + 1; i++) {
    const c = sim.connect(endpointId);
    if (c.state === 'refused') {
      expect(c.error?.sqlstate).toBe('53300');
      return open;
    }
    open++;
  }
  return open;
}

describe('profiles: seed values by default, today’s as `current`', () => {
  it('given the current profile, when the profile resolves, then max_connections follows today’s table, 7 reserved, pooler pools at 90%', () => {
    const sim = new Simulation({ profile: 'current' });
    expect(sim.profile.base).toBe('current');
    for (const [cu, max] of DOCUMENTED_TODAY)
      expect(sim.connectionLimits(cu, cu), `${cu} CU`).toEqual({
        maxConnections: max,
        clientConnections: max - 7,
        poolerBackendPool: Math.floor(max * 0.9),
      });
  });

  it('given the default (seed) profile, then max_connections follows the seed table with nothing reserved', () => {
    const sim = new Simulation();
    expect(sim.profile.base).toBe('seed');
    for (const [cu, max] of SEED_TABLE)
      expect(sim.connectionLimits(cu, cu).maxConnections, `${cu} CU`).toBe(max);
    expect(sim.connectionLimits(0.25, 0.25).clientConnections).toBe(112);
  });

  it('given a 0.25 CU compute under current, when 98 clients connect directly, then 97 open and the 98th is refused (53300)', () => {
    const { sim, endpointId } = givenProject({ profile: { base: 'current' } });
    expect(admitted(sim, endpointId, 120)).toBe(97);
    const seed = givenProject();
    expect(admitted(seed.sim, seed.endpointId, 120)).toBe(112);
  });

  it('given an autoscaling 0.25-2 CU compute, then the seed sizes max_connections by the minimum and current by the maximum', () => {
    expect(new Simulation().connectionLimits(0.25, 2).maxConnections).toBe(112);
    expect(new Simulation({ profile: 'current' }).connectionLimits(0.25, 2).maxConnections).toBe(
      839,
    );
    const { sim, projectId, branchId } = givenProject({ profile: { base: 'current' } });
    const created = sim.request('POST', `/projects/${projectId}/endpoints`, {
      endpoint: {
        branch_id: branchId,
        type: 'read_only',
        autoscaling_limit_min_cu: 0.25,
        autoscaling_limit_max_cu: 2,
      },
    });
    expect(created.status).toBe(201);
    sim.runUntil(
      (s) => s.projects[projectId]!.endpoints[created.body.endpoint.id]!.currentState === 'active',
    );
    expect(admitted(sim, created.body.endpoint.id, 900)).toBe(839 - 7);
  });

  it('given the free plan under current, when a compute autoscales up to 2 CU, then it is allowed; above 2 CU it is refused', () => {
    const { sim, projectId, branchId } = givenProject({
      profile: { base: 'current', plan: 'free' },
    });
    const endpoint = (min: number, max: number) =>
      sim.request('POST', `/projects/${projectId}/endpoints`, {
        endpoint: {
          branch_id: branchId,
          type: 'read_only',
          autoscaling_limit_min_cu: min,
          autoscaling_limit_max_cu: max,
        },
      });
    expect(endpoint(0.25, 2).status).toBe(201);
    const big = endpoint(0.25, 3);
    expect(big.status).toBe(400);
    expect(big.body.message).toMatch(/free plan.*2 CU/);
    const seed = givenProject({ profile: { plan: 'free' } });
    const seedAutoscaling = seed.sim.request('POST', `/projects/${seed.projectId}/endpoints`, {
      endpoint: {
        branch_id: seed.branchId,
        type: 'read_only',
        autoscaling_limit_min_cu: 0.25,
        autoscaling_limit_max_cu: 2,
      },
    });
    expect(seedAutoscaling.status).toBe(400);
  });

  it('given the free plan under current, when a fourth read replica is created in a project, then it is refused and nothing changes', () => {
    const { sim, projectId, branchId, settle } = givenProject({
      profile: { base: 'current', plan: 'free' },
    });
    const replica = () =>
      sim.request('POST', `/projects/${projectId}/endpoints`, {
        endpoint: { branch_id: branchId, type: 'read_only' },
      });
    for (let i = 0; i < 3; i++) {
      expect(replica().status).toBe(201);
      settle();
    }
    const before = Object.keys(sim.state.projects[projectId]!.endpoints).length;
    const fourth = replica();
    expect(fourth.status).toBe(400);
    expect(fourth.body.message).toMatch(/3 read replicas/);
    expect(Object.keys(sim.state.projects[projectId]!.endpoints)).toHaveLength(before);
    const viaBranch = sim.request('POST', `/projects/${projectId}/branches`, {
      endpoints: [{ type: 'read_only' }],
    });
    expect(viaBranch.status).toBe(400);
    const seed = givenProject({ profile: { plan: 'free' } });
    for (let i = 0; i < 4; i++) {
      expect(
        seed.sim.request('POST', `/projects/${seed.projectId}/endpoints`, {
          endpoint: { branch_id: seed.branchId, type: 'read_only' },
        }).status,
      ).toBe(201);
      seed.settle();
    }
  });

  it('given the current profile with an override, when it is logged and replayed, then the replay has the same profile', () => {
    const sim = new Simulation({
      profile: { base: 'current', connections: { reservedForSuperuser: 3 } },
    });
    expect(sim.profile.connections.reservedForSuperuser).toBe(3);
    expect(sim.profile.connections.ramBytesPerConnection).not.toBe(
      new Simulation().profile.connections.ramBytesPerConnection,
    );
    const replayed = Simulation.replay(sim.log);
    expect(replayed.profile).toEqual(sim.profile);
    expect(() => new Simulation({ profile: 'yesterday' as never })).toThrow(/seed, current/);
  });
});
