/**
 * A sweep's results: every run's figures, and per point the mean and 95% interval of each headline
 * figure across seeds. Built from results in task order, so how many workers ran them never shows.
 */
import type { FleetMetrics } from '../projection/metrics.js';
import { FIGURES, figureOf } from './figures.js';
import { meanInterval, type MeanInterval } from './interval.js';
import type { SweepPlan } from './sweepPlan.js';

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
  readonly seeds: readonly number[];
  readonly points: readonly SweepPoint[];
}

/** Assembles the results of a plan from its runs' metrics, given in task order. */
export function sweepResult<P>(plan: SweepPlan<P>, fleets: readonly FleetMetrics[]): SweepResult {
  if (fleets.length !== plan.tasks.length)
    throw new RangeError(`sweep: ${fleets.length} results for ${plan.tasks.length} runs`);
  const points = plan.points.map((configuration, p) => {
    const runs = plan.seeds.map((seed, s) => ({
      seed,
      fleet: fleets[p * plan.seeds.length + s] as FleetMetrics,
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
    study: plan.study.name,
    ...(plan.study.description === undefined ? {} : { description: plan.study.description }),
    duration: plan.study.duration,
    parameters: plan.parameters,
    seeds: plan.seeds,
    points,
  };
}
