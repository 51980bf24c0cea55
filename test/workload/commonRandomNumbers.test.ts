/**
 * Common random numbers: a workload's sessions depend on the seed and the workload alone, so runs
 * under different configurations see exactly the same arrivals and session lengths.
 */
import { describe, expect, it } from 'vitest';
import { Simulation, officeHours, type ProfileOverrides } from '../../src/index.js';

const START = Date.parse('2026-01-05T00:00:00Z');

function sessionsUnder(profile: ProfileOverrides, suspendTimeout: number, seed = 21) {
  const sim = new Simulation({ seed, start: START, profile });
  const created = sim.request('POST', '/projects', {
    project: {
      default_endpoint_settings: {
        autoscaling_limit_min_cu: 0.25,
        autoscaling_limit_max_cu: 2,
        suspend_timeout_seconds: suspendTimeout,
      },
    },
  }).body;
  const endpointId: string = created.endpoints[0].id;
  sim.addWorkload({
    kind: 'poisson',
    endpointId,
    rates: officeHours({ peak: 12, offPeak: 1 }),
    session: { duration: { dist: 'lognormal', median: '2m', sigma: 0.8 }, cpu: 0.3 },
  });
  sim.addWorkload({ kind: 'cron', endpointId, every: '15m', session: { duration: '30s' } });
  sim.advance('2d');
  const arrivals: string[] = [];
  const holds: number[] = [];
  for (const event of sim.log) {
    if (event.type === 'SessionArrived')
      arrivals.push(`${event.workloadId}#${event.index}@${event.at}`);
    if (event.type === 'ConnectionRequested' || event.type === 'ConnectionOpened')
      if (event.holdMs !== undefined) holds.push(event.holdMs);
  }
  return { arrivals, holds, logLength: sim.log.length };
}

describe('common random numbers', () => {
  it('gives identical session arrivals and lengths under different configurations', () => {
    const base = sessionsUnder({}, 300);
    const other = sessionsUnder(
      {
        latency: { wake_compute: [2_000, 4_000] },
        availabilityChecks: { intervalMs: 0, backoff: 1, maxIntervalMs: 0 },
      },
      60,
    );
    expect(base.arrivals.length).toBeGreaterThan(200);
    expect(other.arrivals).toEqual(base.arrivals);
    expect(other.holds).toEqual(base.holds);
    expect(other.logLength).not.toBe(base.logLength);
  });

  it('gives different sessions for a different seed', () => {
    expect(sessionsUnder({}, 300, 22).arrivals).not.toEqual(sessionsUnder({}, 300, 21).arrivals);
  });
});
