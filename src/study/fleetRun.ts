/**
 * Running a fleet: each project of a range built on a fresh simulation seeded by the fleet's seed and
 * its index, run for the fleet's span and measured into a mergeable part. A project's results do not
 * depend on which range, thread, shard or worker ran it.
 */
import { parseDuration } from '../core/duration.js';
import { hashString } from '../core/hash.js';
import { RandomSource } from '../core/randomSource.js';
import { synchronously } from '../core/synchronously.js';
import {
  DEFAULT_PRICE_PER_CU_HOUR,
  metricsOf,
  type FleetMetrics,
  type MetricsOptions,
} from '../projection/metrics.js';
import { Simulation } from '../simulation/simulation.js';
import type { FleetDefinition } from './fleet.js';
import { FleetTally, type FleetMeta, type FleetPart } from './fleetPart.js';
import { PERCENTILE_RELATIVE_ERROR } from './latencyHistogram.js';

/** The seed project `index` of a fleet with seed `seed` runs with (its own random streams). */
function projectSeed(seed: number, index: number): number {
  return RandomSource.derive(seed, 'fleet:project', index).int(0, 0x7fff_ffff);
}

/** What identifies a run of `fleet` (parts of it merge only with parts of the same). */
export function fleetMeta(fleet: FleetDefinition): FleetMeta {
  return {
    fleet: fleet.name,
    ...(fleet.description === undefined ? {} : { description: fleet.description }),
    projects: fleet.projects,
    seed: fleet.seed ?? 1,
    duration: fleet.duration,
    pricePerCuHour: fleet.pricePerCuHour ?? DEFAULT_PRICE_PER_CU_HOUR,
  };
}

/** A short text that differs between fleet runs (to tell cells of different ones apart). */
export function fleetFingerprint(fleet: FleetDefinition): string {
  return hashString(JSON.stringify(fleetMeta(fleet)))
    .toString(16)
    .padStart(8, '0');
}

/** Builds and runs project `index` of `fleet`; its metrics, with every sample given to `onSample`. */
export function runProject(
  fleet: FleetDefinition,
  index: number,
  onSample?: MetricsOptions['onSample'],
): FleetMetrics {
  const sim = new Simulation({
    seed: projectSeed(fleet.seed ?? 1, index),
    ...(fleet.start === undefined ? {} : { start: fleet.start }),
    ...(fleet.profile === undefined ? {} : { profile: fleet.profile }),
  });
  synchronously('project', fleet.project, sim, index);
  sim.advance(parseDuration(fleet.duration), { stepLimit: Number.MAX_SAFE_INTEGER });
  return metricsOf(sim.log, {
    pricePerCuHour: fleet.pricePerCuHour ?? DEFAULT_PRICE_PER_CU_HOUR,
    until: sim.now(),
    ...(onSample === undefined ? {} : { onSample }),
  }).fleet;
}

/** Runs projects `[from, to)` of `fleet`, each in its own simulation; returns their part. */
export function runFleetRange(fleet: FleetDefinition, from: number, to: number): FleetPart {
  const tally = new FleetTally(fleetMeta(fleet));
  for (let index = from; index < to; index++)
    tally.addProject(
      index,
      runProject(fleet, index, (figure, ms) => tally.record(figure, ms)),
    );
  return tally.part();
}

/** A whole fleet's results. */
export interface FleetResult {
  readonly fleet: string;
  readonly description?: string;
  readonly projects: number;
  readonly seed: number;
  readonly duration: string | number;
  /** Sums and counts exact; percentiles at most this fraction above the exact nearest-rank ones. */
  readonly percentileRelativeError: number;
  readonly metrics: FleetMetrics;
}

/**
 * Merges parts covering every project of one fleet run into its results. Throws a `RangeError`
 * naming the problem: a part of another fleet run, overlapping parts, projects no part measured.
 */
export function fleetResult(parts: readonly FleetPart[]): FleetResult {
  const [first] = parts;
  if (first === undefined) throw new RangeError('fleet: no parts to merge');
  const tally = new FleetTally(first.meta);
  for (const part of parts) tally.merge(part);
  const { meta } = first;
  if (!tally.complete()) {
    const measured = tally.ranges().map(([a, b]) => `${a}-${b - 1}`);
    throw new RangeError(
      `fleet ${meta.fleet}: projects missing (measured ${measured.join(', ') || 'none'} of 0-${meta.projects - 1})`,
    );
  }
  return {
    fleet: meta.fleet,
    ...(meta.description === undefined ? {} : { description: meta.description }),
    projects: meta.projects,
    seed: meta.seed,
    duration: meta.duration,
    percentileRelativeError: PERCENTILE_RELATIVE_ERROR,
    metrics: tally.metrics(),
  };
}

/** Runs a whole fleet in this thread. */
export function runFleet(fleet: FleetDefinition): FleetResult {
  return fleetResult([runFleetRange(fleet, 0, fleet.projects)]);
}
