/**
 * A sweep's results: every run's figures, and per point the mean and 95% interval of each headline
 * figure across seeds. Built from results in task order, so how many workers ran them never shows.
 */
import { hashString } from '../core/hash.js';
import type { FleetMetrics } from '../projection/metrics.js';
import { FIGURES, figureOf } from './figures.js';
import { meanInterval, type MeanInterval } from './interval.js';
import type { SweepPlan } from './sweepPlan.js';
import type { ParamLabel } from './study.js';

/** One run: a seed and the fleet metrics it gave. */
export interface SweepRun {
  readonly seed: number;
  readonly fleet: FleetMetrics;
}

/** One point of a sweep with its runs and their summary. */
export interface SweepPoint {
  readonly name: string;
  readonly params: unknown;
  readonly runs: readonly SweepRun[];
  /**
   * Per headline figure key (see `FIGURES`): mean and 95% interval across the seeds that have the
   * figure (`n` says how many; a percentile of a run without samples is left out).
   */
  readonly summary: Readonly<Record<string, MeanInterval>>;
}

/** The results of a sweep. */
export interface SweepResult {
  readonly study: string;
  readonly description?: string;
  readonly duration: string | number;
  readonly parameters: readonly string[];
  /** How parameters read (units, named values), as the study says. */
  readonly paramLabels?: Readonly<Record<string, ParamLabel>>;
  readonly seeds: readonly number[];
  readonly points: readonly SweepPoint[];
}

/**
 * What a sweep's results will look like before any run: everything of a `SweepResult` but the runs.
 * Plain data, so shards can carry it and a merge can check that they come from the same sweep.
 */
export interface SweepShape {
  readonly study: string;
  readonly description?: string;
  readonly duration: string | number;
  readonly parameters: readonly string[];
  readonly paramLabels?: Readonly<Record<string, ParamLabel>>;
  readonly seeds: readonly number[];
  readonly points: readonly { readonly name: string; readonly params?: unknown }[];
}

/** The shape of a plan's results. */
export function sweepShape<P>(plan: SweepPlan<P>): SweepShape {
  return {
    study: plan.study.name,
    ...(plan.study.description === undefined ? {} : { description: plan.study.description }),
    duration: plan.study.duration,
    parameters: plan.parameters,
    ...(plan.study.paramLabels === undefined
      ? {}
      : { paramLabels: plan.study.paramLabels as Readonly<Record<string, ParamLabel>> }),
    seeds: plan.seeds,
    points: plan.points.map((point) => ({ name: point.name, params: point.params })),
  };
}

/** A short text that differs between shapes (to tell cells of different sweeps apart). */
export function shapeFingerprint(shape: SweepShape): string {
  return hashString(JSON.stringify(shape)).toString(16).padStart(8, '0');
}

/** How many runs a sweep of this shape has (points × seeds). */
export function runCount(shape: SweepShape): number {
  return shape.points.length * shape.seeds.length;
}

/** Assembles the results of a sweep from its runs' metrics, given in task order. */
export function sweepResult(shape: SweepShape, fleets: readonly FleetMetrics[]): SweepResult {
  if (fleets.length !== runCount(shape))
    throw new RangeError(`sweep: ${fleets.length} results for ${runCount(shape)} runs`);
  const points = shape.points.map((configuration, p) => {
    const runs = shape.seeds.map((seed, s) => ({
      seed,
      fleet: fleets[p * shape.seeds.length + s] as FleetMetrics,
    }));
    const summary = Object.fromEntries(
      FIGURES.map((figure) => [
        figure.key,
        meanInterval(
          runs
            .map((run) => figureOf(figure, run.fleet))
            .filter((value): value is number => value !== undefined),
        ),
      ]),
    );
    return { name: configuration.name, params: configuration.params, runs, summary };
  });
  return {
    study: shape.study,
    ...(shape.description === undefined ? {} : { description: shape.description }),
    duration: shape.duration,
    parameters: shape.parameters,
    ...(shape.paramLabels === undefined ? {} : { paramLabels: shape.paramLabels }),
    seeds: shape.seeds,
    points,
  };
}
