/**
 * Running a fleet: each project of a range built on a fresh simulation seeded by the fleet's seed and
 * its index, run for the fleet's span and measured into a mergeable part. A project's results do not
 * depend on which range, thread, shard or worker ran it.
 */
import { parseDuration } from '../core/duration.js';
import { RandomSource } from '../core/randomSource.js';
import { synchronously } from '../core/synchronously.js';
import { DEFAULT_PRICE_PER_CU_HOUR, metricsOf, type FleetMetrics } from '../projection/metrics.js';
import { Simulation } from '../simulation/simulation.js';
import type { FleetDefinition } from './fleet.js';
import { FLEET_PART_FORMAT, FleetTally, type FleetPart } from './fleetPart.js';
import { PERCENTILE_RELATIVE_ERROR } from './latencyHistogram.js';

/** The seed project `index` of a fleet with seed `seed` runs with (its own random streams). */
export function projectSeed(seed: number, index: number): number {
  return RandomSource.derive(seed, 'fleet:project', index).int(0, 0x7fff_ffff);
}

/** Runs projects `[from, to)` of `fleet`, each in its own simulation; returns their part. */
export function runFleetRange(fleet: FleetDefinition, from: number, to: number): FleetPart {
  const tally = tallyOf(fleet);
  const span = parseDuration(fleet.duration);
  const pricePerCuHour = fleet.pricePerCuHour ?? DEFAULT_PRICE_PER_CU_HOUR;
  for (let index = from; index < to; index++) {
    const sim = new Simulation({
      seed: projectSeed(fleet.seed ?? 1, index),
      ...(fleet.start === undefined ? {} : { start: fleet.start }),
      ...(fleet.profile === undefined ? {} : { profile: fleet.profile }),
    });
    synchronously('project', fleet.project, sim, index);
    sim.advance(span, { stepLimit: Number.MAX_SAFE_INTEGER });
    const { fleet: metrics } = metricsOf(sim.log, {
      pricePerCuHour,
      until: sim.now(),
      onSample: (figure, ms) => tally.record(figure, ms),
    });
    tally.addProject(index, metrics);
  }
  return tally.part();
}

/** A whole fleet's results. */
export interface FleetResult {
  readonly fleet: string;
  readonly description?: string;
  readonly projects: number;
  /** Sums and counts exact; percentiles at most this fraction above the exact nearest-rank ones. */
  readonly percentileRelativeError: number;
  readonly metrics: FleetMetrics;
}

/**
 * Merges parts covering every project of `fleet` into its results. Throws a `RangeError` naming the
 * problem: a part of another fleet, overlapping parts, projects no part measured.
 */
export function fleetResult(
  fleet: Pick<FleetDefinition, 'name' | 'description' | 'projects' | 'pricePerCuHour'>,
  parts: readonly FleetPart[],
): FleetResult {
  const tally = tallyOf(fleet);
  for (const part of parts) {
    if (
      part.format !== FLEET_PART_FORMAT ||
      part.fleet !== fleet.name ||
      part.projects !== fleet.projects
    )
      throw new RangeError(
        `fleet ${fleet.name}: a part of another fleet (${part.fleet}, ${part.projects} projects)`,
      );
    tally.merge(part);
  }
  if (!tally.complete())
    throw new RangeError(
      `fleet ${fleet.name}: projects missing (measured: ${
        tally
          .ranges()
          .map(([a, b]) => `${a}-${b - 1}`)
          .join(', ') || 'none'
      } of 0-${fleet.projects - 1})`,
    );
  return {
    fleet: fleet.name,
    ...(fleet.description === undefined ? {} : { description: fleet.description }),
    projects: fleet.projects,
    percentileRelativeError: PERCENTILE_RELATIVE_ERROR,
    metrics: tally.metrics(),
  };
}

/** Runs a whole fleet in this thread. */
export function runFleet(fleet: FleetDefinition): FleetResult {
  return fleetResult(fleet, [runFleetRange(fleet, 0, fleet.projects)]);
}

function tallyOf(fleet: Pick<FleetDefinition, 'name' | 'projects' | 'pricePerCuHour'>): FleetTally {
  return new FleetTally(
    fleet.name,
    fleet.projects,
    fleet.pricePerCuHour ?? DEFAULT_PRICE_PER_CU_HOUR,
  );
}
