/**
 * Time series for charts: samples on a regular grid that agree with a hand-computed timeline and,
 * integrated, with the CU-hours of the metrics projection.
 */
import { describe, expect, it } from 'vitest';
import { Simulation, metricsOf } from '../../src/index.js';
import { timeSeriesOf } from '../../src/entries/studies.js';
import { timeBucketsOf } from '../../src/projection/timeSeries.js';

const START = Date.parse('2026-01-05T00:00:00Z');
const QUIET = {
  latency: {
    create_timeline: [3_000, 3_000] as const,
    start_compute: [2_000, 2_000] as const,
    wake_compute: [500, 500] as const,
    suspend_compute: [200, 200] as const,
  },
  availabilityChecks: { intervalMs: 0, backoff: 1, maxIntervalMs: 0 },
  tenantDetachAfterMs: 0,
  coldCache: { warmupMs: 0, penaltyMs: 0 },
};

describe('time series', () => {
  it('samples active computes, total CU and open sessions on a regular grid', () => {
    const sim = new Simulation({ seed: 2, start: START, profile: QUIET });
    const endpointId: string = sim.request('POST', '/projects', {
      project: {
        default_endpoint_settings: { autoscaling_limit_min_cu: 2, autoscaling_limit_max_cu: 2 },
      },
    }).body.endpoints[0].id;
    sim.addWorkload({
      kind: 'trace',
      rows: [
        { at: START + 20 * 60_000, endpointId, duration: '3m' },
        { at: START + 21 * 60_000, endpointId, duration: '5m' },
      ],
    });
    sim.advance('35m');
    const series = timeSeriesOf(sim.log, { every: '1m' });
    expect(series).toHaveLength(36);
    const at = (minute: number) => series[minute]!;
    expect(at(0)).toEqual({
      at: START,
      activeComputes: 0,
      totalCu: 0,
      sessions: 0,
      connections: 0,
    });
    expect(at(1)).toMatchObject({ activeComputes: 1, totalCu: 2, sessions: 0 }); // started at 5 s
    expect(at(6)).toMatchObject({ activeComputes: 0, totalCu: 0 }); // suspended at 5 min 5.2 s
    expect(at(21)).toMatchObject({ activeComputes: 1, totalCu: 2, sessions: 2 });
    expect(at(23)).toMatchObject({ sessions: 2 }); // the first closes at 23 min 0.5 s
    expect(at(24)).toMatchObject({ sessions: 1, connections: 1 });
    expect(at(30)).toMatchObject({ activeComputes: 1, sessions: 0 }); // idle since 26 min
    expect(at(32)).toMatchObject({ activeComputes: 0, totalCu: 0 }); // suspended at 31 min 0.2 s
  });

  it('counts plain client connections apart from workload sessions', () => {
    const sim = new Simulation({ seed: 2, start: START, profile: QUIET });
    const endpointId: string = sim.request('POST', '/projects', { project: {} }).body.endpoints[0]
      .id;
    sim.advance('1m');
    const client = sim.connect(endpointId);
    sim.advance('2m');
    client.close();
    sim.advance('1m');
    const series = timeSeriesOf(sim.log, { every: '1m' });
    // A sample holds what happened at or before its instant: connected at 1m, closed at 3m.
    expect(series.map((s) => s.connections)).toEqual([0, 1, 1, 0, 0]);
    expect(series.map((s) => s.sessions)).toEqual([0, 0, 0, 0, 0]);
  });

  it('integrates to the CU-hours of the metrics, to within the sampling step', () => {
    const sim = new Simulation({ seed: 8, start: START, profile: QUIET });
    const endpointId: string = sim.request('POST', '/projects', {
      project: {
        default_endpoint_settings: { autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 4 },
      },
    }).body.endpoints[0].id;
    sim.addWorkload({
      kind: 'poisson',
      endpointId,
      rates: 10,
      session: {
        duration: { dist: 'exponential', mean: '4m' },
        cpu: { dist: 'uniform', min: 0, max: 2 },
      },
    });
    sim.advance('6h');
    const series = timeSeriesOf(sim.log, { every: '1s' });
    const sampledCuHours = series.reduce((sum, s) => sum + s.totalCu, 0) / 3600;
    const { fleet } = metricsOf(sim.log);
    expect(fleet.resizes).toBeGreaterThan(10);
    expect(Math.abs(sampledCuHours - fleet.cuHours)).toBeLessThan(0.02 * fleet.cuHours);
  });

  it('refuses a spacing under 1 ms', () => {
    expect(() => timeSeriesOf([], { every: 0 })).toThrow(/at least 1 ms/);
  });

  it('buckets keep short bursts of a long run visible and integrate to the CU-hours', () => {
    const sim = new Simulation({ seed: 4, start: START, profile: QUIET });
    const endpointId: string = sim.request('POST', '/projects', { project: {} }).body.endpoints[0]
      .id;
    sim.addWorkload({ kind: 'cron', endpointId, every: '30m', session: { duration: '20s' } });
    sim.advance('40d', { stepLimit: Number.MAX_SAFE_INTEGER });
    const every = 96 * 60_000;
    const buckets = timeBucketsOf(sim.log, { every });
    expect(buckets.length).toBe(601);
    for (const bucket of buckets.slice(0, -1)) {
      expect(bucket.peakConnections).toBeGreaterThanOrEqual(1);
      expect(bucket.peakCu).toBeGreaterThan(0);
    }
    const cuHours = buckets.reduce((sum, b, i) => {
      const length = i === buckets.length - 1 ? sim.now() + 1 - b.at : every;
      return sum + (b.meanCu * length) / 3_600_000;
    }, 0);
    expect(cuHours).toBeCloseTo(metricsOf(sim.log).fleet.cuHours, 6);
  });
});
