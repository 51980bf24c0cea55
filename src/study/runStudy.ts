/**
 * One run of a study: a fresh simulation under one configuration and seed, set up, advanced for the
 * study's span, and measured (`runStudy`, keeping no log), or kept with its whole log for a report
 * to draw (`playStudy`). Compare and sweep are built from them.
 */
import { parseDuration } from '../core/duration.js';
import { synchronously } from '../core/synchronously.js';
import { Simulation } from '../simulation/simulation.js';
import { MetricsProjection, type FleetMetrics } from '../projection/metrics.js';
import type { Configuration, Study } from './study.js';

/** Runs `study` once under `configuration` with `seed` (default: the study's, else 1). */
export function runStudy<P>(
  study: Study<P>,
  configuration: Configuration<P>,
  seed: number = study.seed ?? 1,
): FleetMetrics {
  // Measured as it runs: a run keeps no log, so a long grid cell holds only its state, not every
  // event it made (the figures equal metricsOf of the full log; a property test holds them to it).
  const sim = freshSimulation(study, configuration, seed, 'none');
  const projection = MetricsProjection.follow(sim);
  play(study, configuration, sim);
  projection.stop();
  const options =
    study.pricePerCuHour === undefined ? {} : { pricePerCuHour: study.pricePerCuHour };
  return projection.metrics(options).fleet;
}

/**
 * Runs `study` once as `runStudy` does, but keeps the log in memory and returns the simulation: the
 * same run event for event (the same seed, configuration and span), for a report to draw.
 */
export function playStudy<P>(
  study: Study<P>,
  configuration: Configuration<P>,
  seed: number = study.seed ?? 1,
): Simulation {
  const sim = freshSimulation(study, configuration, seed, 'memory');
  play(study, configuration, sim);
  return sim;
}

function freshSimulation<P>(
  study: Study<P>,
  configuration: Configuration<P>,
  seed: number,
  log: 'none' | 'memory',
): Simulation {
  const derived =
    study.profileFor !== undefined && configuration.params !== undefined
      ? study.profileFor(configuration.params)
      : undefined;
  const profile =
    derived === undefined ? configuration.profile : { ...derived, ...configuration.profile };
  return new Simulation({
    seed,
    ...(log === 'none' ? { log } : {}),
    ...(study.start === undefined ? {} : { start: study.start }),
    ...(profile === undefined ? {} : { profile }),
  });
}

function play<P>(study: Study<P>, configuration: Configuration<P>, sim: Simulation): void {
  synchronously('setup', study.setup, sim, configuration);
  sim.advance(parseDuration(study.duration), { stepLimit: Number.MAX_SAFE_INTEGER });
}
