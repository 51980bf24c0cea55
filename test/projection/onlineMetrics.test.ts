/**
 * Online metrics: a MetricsProjection that follows a running simulation through `events$` gives
 * exactly `metricsOf` of the whole log, whether the run keeps its log, streams it or keeps none, and
 * can be read in the middle of the run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LogUnavailableError, Simulation, metricsOf } from '../../src/index.js';
import { type LogKeeping } from '../../src/entries/model.js';
import { MetricsProjection } from '../../src/entries/studies.js';
import { withFaults } from '../../src/testing/index.js';
import { addBusyProjects } from '../support/busyProjects.js';

/** Wake-ups and suspends that fail now and then: retries, errors and refused sessions. */
const FAULTS = {
  wake_compute: { failureRate: 0.2, maxRetries: 2, retryDelayMs: 1_000 },
  suspend_compute: { failureRate: 0.3, maxRetries: 0, retryDelayMs: 0 },
};

/** Busy projects, with or without faults, followed by online metrics from the first event. */
function fleet(seed: number, projects: number, faults: boolean, log: LogKeeping = 'memory') {
  const options = { seed, log };
  const sim = new Simulation(faults ? withFaults(options, { operations: FAULTS }) : options);
  const metrics = MetricsProjection.follow(sim);
  addBusyProjects(sim, projects);
  return { sim, metrics };
}

describe('online metrics', () => {
  it('equal metricsOf of the full log, read mid-run and at the end (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 1, max: 5 }),
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 12 * 3_600_000 }), { minLength: 1, maxLength: 4 }),
        (seed, projects, faults, moves) => {
          const { sim, metrics } = fleet(seed, projects, faults);
          for (const ms of moves) {
            sim.advance(ms);
            expect(metrics.metrics()).toEqual(metricsOf(sim.log));
            const until = sim.now();
            expect(metrics.metrics({ until, pricePerCuHour: 0.2 })).toEqual(
              metricsOf(sim.log, { until, pricePerCuHour: 0.2 }),
            );
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('are the same figures when the run keeps no log', () => {
    const kept = fleet(9, 4, true);
    const none = fleet(9, 4, true, 'none');
    kept.sim.advance('2d');
    none.sim.advance('2d');
    expect(none.metrics.metrics()).toEqual(metricsOf(kept.sim.log));
    expect(none.metrics.metrics().fleet.sessions).toBeGreaterThan(100);
  });

  it('catch up with what an in-memory log holds already, and stop when told', () => {
    const { sim } = fleet(4, 2, false);
    sim.advance('6h');
    const late = MetricsProjection.follow(sim);
    sim.advance('6h');
    expect(late.metrics()).toEqual(metricsOf(sim.log));
    late.stop();
    sim.advance('6h');
    expect(late.metrics()).not.toEqual(metricsOf(sim.log));
  });

  it('refuse to start late on a run that keeps no log', () => {
    const sim = new Simulation({ log: 'none' });
    sim.request('POST', '/projects', { project: {} });
    const events = sim.log.length;
    expect(() => MetricsProjection.follow(sim)).toThrow(LogUnavailableError);
    expect(() => MetricsProjection.follow(sim)).toThrow(
      /^MetricsProjection\.follow needs the \d+ events .* start it before the run's first step/,
    );
    expect(sim.log.length).toBe(events);
  });
});
