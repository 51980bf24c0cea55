/**
 * One run of a study: a fresh simulation under one configuration and seed, set up, advanced for the
 * study's span, and measured. Compare and sweep are built from it.
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
  const derived =
    study.profileFor !== undefined && configuration.params !== undefined
      ? study.profileFor(configuration.params)
      : undefined;
  const profile =
    derived === undefined ? configuration.profile : { ...derived, ...configuration.profile };
  // Measured as it runs: a run keeps no log, so a long grid cell holds only its state, not every
  // event it made (the figures equal metricsOf of the full log; a property test holds them to it).
  const sim = new Simulation({
    seed,
    log: 'none',
    ...(study.start === undefined ? {} : { start: study.start }),
    ...(profile === undefined ? {} : { profile }),
  });
  const projection = MetricsProjection.follow(sim);
  synchronously('setup', study.setup, sim, configuration);
  sim.advance(parseDuration(study.duration), { stepLimit: Number.MAX_SAFE_INTEGER });
  projection.stop();
  const options =
    study.pricePerCuHour === undefined ? {} : { pricePerCuHour: study.pricePerCuHour };
  return projection.metrics(options).fleet;
}
