/**
 * Autoscaling: the target size rule, when a running compute grows and shrinks, and (as a property)
 * that under any workload it stays within its range, on allowed sizes, without restarts or drops.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation, type ProfileOverrides, type SimEvent } from '../../src/index.js';
import { autoscaleTarget } from '../../src/domain/autoscaling.js';
import { ALLOWED_CU } from '../../src/domain/computeSize.js';
import { immerFold } from '../support/immerFold.js';

const GOALS = { cpuGoal: 0.9, memoryGoal: 0.75 };
const START = Date.parse('2026-01-05T00:00:00Z');
const QUIET: ProfileOverrides = {
  availabilityChecks: { intervalMs: 0, backoff: 1, maxIntervalMs: 0 },
  tenantDetachAfterMs: 0,
  coldCache: { warmupMs: 0, penaltyMs: 0 },
};

describe('the autoscaling target', () => {
  it.each([
    [{ milliCpu: 0, memoryMb: 0, cacheMb: 0 }, 0.25],
    [{ milliCpu: 200, memoryMb: 0, cacheMb: 0 }, 0.25],
    [{ milliCpu: 300, memoryMb: 0, cacheMb: 0 }, 0.5],
    [{ milliCpu: 1_500, memoryMb: 0, cacheMb: 0 }, 2],
    [{ milliCpu: 0, memoryMb: 6_000, cacheMb: 0 }, 2],
    [{ milliCpu: 0, memoryMb: 0, cacheMb: 10_000 }, 4],
    [{ milliCpu: 100_000, memoryMb: 0, cacheMb: 0 }, 8],
  ])('for %j in 0.25..8 CU is %s CU', (demand, expected) => {
    const { milliCpu, memoryMb, cacheMb } = demand;
    expect(autoscaleTarget(milliCpu, memoryMb, cacheMb, 0.25, 8, GOALS)).toBe(expected);
  });

  it('never leaves the range and is always an allowed size', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 50_000 }),
        fc.nat({ max: 100_000 }),
        fc.nat({ max: 100_000 }),
        fc.constantFrom(...ALLOWED_CU.filter((cu) => cu <= 16)),
        fc.nat({ max: 8 }),
        (milliCpu, memoryMb, cacheMb, min, spread) => {
          const max = ALLOWED_CU.find((cu) => cu >= min + spread) ?? 16;
          const target = autoscaleTarget(milliCpu, memoryMb, cacheMb, min, max, GOALS);
          expect(target).toBeGreaterThanOrEqual(min);
          expect(target).toBeLessThanOrEqual(max);
          expect(ALLOWED_CU).toContain(target);
        },
      ),
    );
  });
});

function givenAutoscalingCompute(min: number, max: number, profile: ProfileOverrides = QUIET) {
  const sim = new Simulation({ seed: 9, start: START, profile });
  const created = sim.request('POST', '/projects', {
    project: {
      default_endpoint_settings: {
        autoscaling_limit_min_cu: min,
        autoscaling_limit_max_cu: max,
        suspend_timeout_seconds: -1,
      },
    },
  }).body;
  sim.runUntilIdle();
  const endpointId: string = created.endpoints[0].id;
  const resizes = () =>
    [...sim.log]
      .filter(
        (e): e is Extract<SimEvent, { type: 'ComputeResized' }> => e.type === 'ComputeResized',
      )
      .map((e) => ({ at: e.at - START, from: e.fromCu, to: e.toCu }));
  return { sim, endpointId, resizes };
}

describe('a running compute under load', () => {
  it('grows at the next 5-second sample and shrinks a minute after the load went away', () => {
    const { sim, endpointId, resizes } = givenAutoscalingCompute(0.25, 2);
    sim.addWorkload({
      kind: 'trace',
      rows: [{ at: START + 60_001, endpointId, duration: '2m', cpu: 1.5 }],
    });
    sim.advance('10m');
    expect(resizes()).toEqual([
      { at: 65_000, from: 0.25, to: 2 },
      { at: 245_000, from: 2, to: 0.25 },
    ]);
    expect(
      sim.state.projects[Object.keys(sim.state.projects)[0]!]!.endpoints[endpointId],
    ).toMatchObject({
      allocatedCu: 0.25,
      loadMilliCpu: 0,
    });
  });

  it('does not shrink while the load dips for less than a minute', () => {
    const { sim, endpointId, resizes } = givenAutoscalingCompute(0.25, 2);
    sim.addWorkload({
      kind: 'trace',
      rows: [
        { at: START + 60_001, endpointId, duration: '1m', cpu: 1.5 },
        { at: START + 150_001, endpointId, duration: '1m', cpu: 1.5 },
      ],
    });
    sim.advance('10m');
    expect(resizes().map((r) => r.to)).toEqual([2, 0.25]);
    expect(resizes()[1]!.at).toBe(275_000);
  });

  it('keeps max_connections at the minimum size while scaled up', () => {
    const { sim, endpointId, resizes } = givenAutoscalingCompute(0.25, 2);
    sim.addWorkload({
      kind: 'trace',
      rows: [{ at: START + 60_001, endpointId, duration: '10m', cpu: 1.5 }],
    });
    sim.advance('2m');
    expect(resizes().at(-1)?.to).toBe(2);
    const clients = Array.from({ length: 112 }, () => sim.connect(endpointId));
    // 0.25 CU allows 112 connections; the session holds one of them.
    expect(clients.filter((c) => c.state === 'open')).toHaveLength(111);
    expect(clients.at(-1)?.error?.sqlstate).toBe('53300');
  });

  it('leaves fixed-size computes alone', () => {
    const { sim, endpointId, resizes } = givenAutoscalingCompute(1, 1);
    sim.addWorkload({
      kind: 'trace',
      rows: [{ at: START + 60_000, endpointId, duration: '2m', cpu: 4 }],
    });
    sim.advance('10m');
    expect(resizes()).toEqual([]);
  });
});

describe('autoscaling under any workload', () => {
  it('stays within the range on allowed sizes, and never restarts or drops a connection', () => {
    const ranges = [
      [0.25, 2],
      [0.5, 4],
      [1, 8],
      [2, 10],
    ] as const;
    fc.assert(
      fc.property(
        fc.integer(),
        fc.constantFrom(...ranges),
        fc.double({ min: 0.5, max: 60, noNaN: true }),
        fc.double({ min: 0, max: 6, noNaN: true }),
        fc.nat({ max: 8 }),
        (seed, [min, max], rate, cpu, memoryGb) => {
          const sim = new Simulation({ seed, start: START, profile: QUIET });
          const created = sim.request('POST', '/projects', {
            project: {
              default_endpoint_settings: {
                autoscaling_limit_min_cu: min,
                autoscaling_limit_max_cu: max,
              },
            },
          }).body;
          const endpointId: string = created.endpoints[0].id;
          sim.addWorkload({
            kind: 'poisson',
            endpointId,
            rates: rate,
            session: {
              duration: { dist: 'exponential', mean: '3m' },
              cpu: { dist: 'uniform', min: 0, max: cpu },
              memoryGb,
            },
          });
          sim.advance('6h');
          let size: number | undefined;
          for (const event of sim.log) {
            expect(event.type).not.toBe('ConnectionsDropped');
            if (event.type === 'OperationCreated')
              expect(['create_timeline', 'start_compute', 'suspend_compute']).toContain(
                event.action,
              );
            if (event.type === 'ComputeStateChanged' && event.currentState === 'active') size = min;
            if (event.type === 'ComputeResized') {
              expect(event.fromCu).toBe(size);
              expect(event.toCu).toBeGreaterThanOrEqual(min);
              expect(event.toCu).toBeLessThanOrEqual(max);
              expect(ALLOWED_CU).toContain(event.toCu);
              size = event.toCu;
            }
          }
          expect(Simulation.replay(sim.log).state).toEqual(sim.state);
          expect(sim.state).toEqual(immerFold(sim.log));
        },
      ),
      { numRuns: 40 },
    );
  });
});
