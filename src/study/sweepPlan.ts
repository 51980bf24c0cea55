/**
 * What a sweep runs: its points (the grid's combinations laid over the baseline configuration, or
 * the study's configurations when there is no grid) times its seeds, as numbered tasks. Pure and
 * deterministic, so a worker thread that loads the same study file plans exactly the same tasks.
 */
import { parseDuration, type Duration } from '../core/duration.js';
import { gridPoints } from './grid.js';
import {
  isParamValue,
  type Configuration,
  type ParamValue,
  type StudyDefinition,
} from './study.js';

/** How to sweep a study. Plain data, so it can be sent to worker threads. */
export interface SweepOptions {
  /** Seeds to run every point with (default: the study's seed, else 1). */
  readonly seeds?: readonly number[];
  /** Values per parameter to walk instead of the study's own grid (`{}`: its configurations). */
  readonly grid?: Readonly<Record<string, readonly ParamValue[]>>;
  /** Run each simulation for this long instead of the study's duration. */
  readonly duration?: Duration;
}

/** One run of a sweep. */
interface SweepTask {
  readonly index: number;
  readonly point: number;
  readonly seed: number;
}

/** Everything a sweep will run, in order. */
export interface SweepPlan<P> {
  readonly study: StudyDefinition<P>;
  /** Names of the swept parameters (empty when the configurations are swept). */
  readonly parameters: readonly string[];
  readonly points: readonly Configuration<P>[];
  readonly seeds: readonly number[];
  readonly tasks: readonly SweepTask[];
}

/** Plans a sweep; throws a `RangeError` that names the problem for a bad option. */
export function planSweep<P>(study: StudyDefinition<P>, options: SweepOptions = {}): SweepPlan<P> {
  const seeds = options.seeds ?? [study.seed ?? 1];
  if (seeds.length === 0) throw new RangeError('sweep: give at least one seed');
  const badSeed = seeds.find((seed) => !Number.isSafeInteger(seed));
  if (badSeed !== undefined)
    throw new RangeError(`sweep: seeds must be whole numbers, got ${String(badSeed)}`);
  if (new Set(seeds).size !== seeds.length) throw new RangeError('sweep: seeds must be distinct');
  const duration = options.duration ?? study.duration;
  parseDuration(duration);
  const grid =
    options.grid ?? (study.grid as Record<string, readonly ParamValue[]> | undefined) ?? {};
  const parameters = Object.keys(grid);
  const points = parameters.length === 0 ? study.configurations : gridConfigurations(study, grid);
  const tasks = points.flatMap((_, point) =>
    seeds.map((seed, s) => ({ index: point * seeds.length + s, point, seed })),
  );
  return { study: { ...study, duration }, parameters, points, seeds, tasks };
}

/**
 * What is wrong with a grid for `study`, or `undefined`: every parameter must be one the study
 * has (in its baseline params or its own grid), with distinct plain values.
 */
export function sweepGridProblem(
  study: StudyDefinition<unknown>,
  grid: Readonly<Record<string, readonly ParamValue[]>>,
): string | undefined {
  const params: unknown = study.configurations[0]?.params;
  if (
    params !== undefined &&
    (typeof params !== 'object' || params === null || Array.isArray(params))
  )
    return `a grid needs params that are a record of values; ${study.name}'s are ${JSON.stringify(params)}`;
  const known = new Set([...Object.keys(params ?? {}), ...Object.keys(study.grid ?? {})]);
  for (const [name, values] of Object.entries(grid)) {
    if (!known.has(name))
      return `unknown parameter "${name}" (${study.name} has: ${[...known].join(', ') || 'none'})`;
    if (values.length === 0) return `give at least one value for ${name}`;
    const bad = values.find((value) => !isParamValue(value));
    if (bad !== undefined) return `${name} takes numbers, strings or booleans, got ${String(bad)}`;
    if (new Set(values).size !== values.length) return `${name} repeats a value`;
  }
  return undefined;
}

function gridConfigurations<P>(
  study: StudyDefinition<P>,
  grid: Readonly<Record<string, readonly ParamValue[]>>,
): Configuration<P>[] {
  const problem = sweepGridProblem(study as StudyDefinition<unknown>, grid);
  if (problem !== undefined) throw new RangeError(`sweep: ${problem}`);
  const baseline = study.configurations[0] as Configuration<P>;
  const base = baseline.params as Readonly<Record<string, unknown>> | undefined;
  return gridPoints(grid).map((point) => ({
    name: point.name,
    params: { ...base, ...point.values } as P,
    ...(baseline.profile === undefined ? {} : { profile: baseline.profile }),
  }));
}

/** Called after each run with the runs done so far and the total. */
export type SweepProgress = (done: number, total: number) => void;
