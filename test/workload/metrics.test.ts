/**
 * Metrics against hand-computed values: fixed latencies, a fixed-size compute and a two-session
 * trace, so every active span, CU-hour and wait is known in advance.
 */
import { describe, expect, it } from 'vitest';
import { Simulation, metricsOf, type ProfileOverrides } from '../../src/index.js';

const START = Date.parse('2026-01-05T00:00:00Z');
const HOUR = 3_600_000;
const FIXED: ProfileOverrides = {
  latency: {
    create_timeline: [3_000, 3_000],
    start_compute: [2_000, 2_000],
    wake_compute: [500, 500],
    suspend_compute: [200, 200],
  },
  availabilityChecks: { intervalMs: 0, backoff: 1, maxIntervalMs: 0 },
  tenantDetachAfterMs: 0,
  coldCache: { warmupMs: 0, penaltyMs: 0 },
};

function givenFixedCompute(cu: number) {
  const sim = new Simulation({ seed: 5, start: START, profile: FIXED });
  const created = sim.request('POST', '/projects', {
    project: {
      default_endpoint_settings: { autoscaling_limit_min_cu: cu, autoscaling_limit_max_cu: cu },
    },
  }).body;
  return { sim, endpointId: created.endpoints[0].id as string };
}

describe('metrics of one compute and two sessions', () => {
  it('match the hand-computed CU-hours, starts, suspends and waits', () => {
    const { sim, endpointId } = givenFixedCompute(2);
    sim.addWorkload({
      kind: 'trace',
      rows: [
        { at: START + HOUR, endpointId, duration: '10m' },
        { at: START + HOUR + 20 * 60_000, endpointId, duration: '10m' },
      ],
    });
    sim.advance('3h');
    const { fleet, computes } = metricsOf(sim.log);
    // First start: 3 s timeline + 2 s start, then 300 s idle and a 0.2 s suspend.
    // Each session: 0.5 s wake, 600 s held, 300 s idle, 0.2 s suspend.
    const activeSeconds = 300.2 + 900.2 + 900.2;
    expect(computes).toHaveLength(1);
    expect(fleet.activeHours).toBeCloseTo(activeSeconds / 3600, 9);
    expect(fleet.cuHours).toBeCloseTo((2 * activeSeconds) / 3600, 9);
    expect(fleet.costEstimate).toBeCloseTo(fleet.cuHours * fleet.pricePerCuHour, 9);
    expect(fleet).toMatchObject({
      starts: 3,
      suspends: 3,
      sessions: 2,
      coldStarts: 2,
      resizes: 0,
      coldStartWaitMs: { count: 2, p50: 500, p95: 500, p99: 500, max: 500 },
      coldCacheDelayMs: { count: 0 },
      refused: {},
      dropped: {},
    });
    expect(fleet.operations['start_compute']).toEqual({ finished: 3 });
    expect(fleet.operations['suspend_compute']).toEqual({ finished: 3 });
    expect(fleet.operations['create_timeline']).toEqual({ finished: 1 });
  });

  it('count a session that finds the compute running as warm, and close the span at `until`', () => {
    const { sim, endpointId } = givenFixedCompute(1);
    sim.addWorkload({
      kind: 'trace',
      rows: [
        { at: START + 60_000, endpointId, duration: '1m' },
        { at: START + 90_000, endpointId, duration: '1m' },
      ],
    });
    sim.advance('150s');
    const { fleet } = metricsOf(sim.log, { until: START + 150_000, pricePerCuHour: 1 });
    expect(fleet).toMatchObject({ starts: 1, suspends: 0, sessions: 2, coldStarts: 0 });
    expect(fleet.cuHours).toBeCloseTo(145 / 3600, 9);
    expect(fleet.costEstimate).toBeCloseTo(145 / 3600, 9);
  });

  it('count refusals and failed statements by SQLSTATE', () => {
    const { sim, endpointId } = givenFixedCompute(0.25);
    const session = { duration: '1m', tempDiskGb: 25 };
    sim.addWorkload({ kind: 'burst', endpointId, after: '1m', count: 3, within: '1s', session });
    sim.advance('5m');
    const projectId = Object.keys(sim.state.projects)[0]!;
    sim.request('PATCH', `/projects/${projectId}/endpoints/${endpointId}`, {
      endpoint: { disabled: true },
    });
    sim.addWorkload({ kind: 'burst', endpointId, count: 2, within: '1s', session });
    sim.advance('5m');
    const { fleet } = metricsOf(sim.log);
    expect(fleet.failedStatements).toEqual({ '53100': 3 });
    expect(fleet.refused).toEqual({ '08004': 2 });
    expect(fleet.sessions).toBe(3);
  });
});
