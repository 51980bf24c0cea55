/**
 * Two futures of one run side by side: the run as it went and its fork from an instant under a
 * settings change, each measured from the fork point, in the shape of `compare`'s table.
 */
import { formatInstant, parseInstant, type Instant } from '../core/instant.js';
import type { SettingsChange } from '../simulation/fork.js';
import { metricsOf, type FleetMetrics } from '../projection/metrics.js';
import { Simulation } from '../simulation/simulation.js';
import { comparisonTable, type Comparison } from './compare.js';

/** Options of a fork comparison. */
export interface CompareForkOptions {
  /** How far both futures run (default: as far as the original has run). */
  readonly until?: Instant;
  /** The fork's name in tables (default `fork`). */
  readonly name?: string;
  /** Price of one CU-hour for the cost estimates. */
  readonly pricePerCuHour?: number;
}

/** A run and its fork, up to the same instant, with the metrics of both futures. */
export interface ForkComparison {
  /** The fork point, epoch ms. */
  readonly at: number;
  /** Where both futures end, epoch ms. */
  readonly until: number;
  /** The run as it went, up to `until` (continued past its end on a copy when needed). */
  readonly original: Simulation;
  /** The fork, up to `until`. */
  readonly fork: Simulation;
  /** Both futures' figures from `at` to `until`: the run as it went first. */
  readonly comparison: Comparison;
}

/** The name the run as it went has in fork tables. */
export const AS_RUN = 'as run';

/**
 * Forks `original` at `at` under `change` and measures both futures from `at` to `until`. The
 * original is not changed: when `until` is past its end, a replayed copy goes on. Throws a
 * `RangeError` as `Simulation.fork` does.
 */
export function compareFork(
  original: Simulation,
  at: Instant,
  change: SettingsChange,
  options: CompareForkOptions = {},
): ForkComparison {
  const fork = original.fork(
    at,
    change,
    options.until === undefined ? {} : { until: options.until },
  );
  const from = parseInstant(at);
  const until = fork.now();
  let asRun = original;
  if (until > original.now()) asRun = Simulation.replay(original.log).advanceTo(until);
  else if (until < original.now())
    asRun = Simulation.replay(original.log.range(0, original.log.firstAfter(until)));
  const measure = (sim: Simulation): FleetMetrics =>
    metricsOf(sim.log, {
      from,
      until,
      ...(options.pricePerCuHour === undefined ? {} : { pricePerCuHour: options.pricePerCuHour }),
    }).fleet;
  return {
    at: from,
    until,
    original: asRun,
    fork,
    comparison: {
      rows: [
        { name: AS_RUN, fleet: measure(asRun) },
        { name: options.name ?? 'fork', fleet: measure(fork) },
      ],
    },
  };
}

/** The comparison as a text table with a line saying what is measured. */
export function forkTable(result: ForkComparison): string {
  const span = `from the fork at ${formatInstant(result.at)} to ${formatInstant(result.until)}`;
  return `${span} (the shared past before it is not counted)\n\n${comparisonTable(result.comparison)}`;
}
