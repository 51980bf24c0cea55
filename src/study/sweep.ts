/**
 * Sweeps: a study's points times seeds, each run on a fresh simulation, summarised with the mean
 * and 95% interval of every headline figure. `sweep` runs a study object in this thread;
 * `sweepStudyFile` runs a study file on worker threads (all cores by default), `sweepShardOfFile` one
 * shard of it. Results are assembled in task order, so they are identical whatever the number of
 * workers or shards.
 */
import { availableParallelism } from 'node:os';
import { fileUrl, loadDefinition } from '../definitions/loadDefinition.js';
import { runStudy } from './runStudy.js';
import { STUDY_FILE, type StudyDefinition } from './study.js';
import { planSweep, type SweepOptions, type SweepProgress } from './sweepPlan.js';
import { sweepResult, sweepShape, type SweepResult } from './sweepResult.js';
import { PART_FORMAT, shardProblem, shardRange, type Shard, type SweepPart } from './sweepShard.js';

/** Sweeps a study in this thread. */
export function sweep<P>(
  study: StudyDefinition<P>,
  options: SweepOptions & { readonly onProgress?: SweepProgress } = {},
): SweepResult {
  const plan = planSweep(study, options);
  const fleets = plan.tasks.map((task) => {
    const fleet = runStudy(plan.study, plan.points[task.point]!, task.seed);
    options.onProgress?.(task.index + 1, plan.tasks.length);
    return fleet;
  });
  return sweepResult(sweepShape(plan), fleets);
}

/** Options of a sweep on worker threads. */
export interface FileSweepOptions extends SweepOptions {
  /** Worker threads to use (default: the cores available, at most one per run). */
  readonly workers?: number;
  readonly onProgress?: SweepProgress;
}

/** Sweeps the study a file default-exports, on worker threads. */
export async function sweepStudyFile(
  file: string,
  options: FileSweepOptions = {},
): Promise<SweepResult> {
  const { shape, fleets } = await runSlice(file, options, undefined);
  return sweepResult(shape, fleets);
}

/**
 * Runs one shard of the sweep of a study file on worker threads: its slice of the runs, as a part
 * that `mergeSweepParts` puts together with the others.
 */
export async function sweepShardOfFile(
  file: string,
  shard: Shard,
  options: FileSweepOptions = {},
): Promise<SweepPart> {
  const problem = shardProblem(shard);
  if (problem !== undefined) throw new RangeError(`sweep: ${problem}`);
  const { shape, fleets, range } = await runSlice(file, options, shard);
  return { format: PART_FORMAT, shard, shape, ...range, runs: fleets };
}

async function runSlice(file: string, options: FileSweepOptions, shard: Shard | undefined) {
  const url = fileUrl(file);
  const plan = planSweep(await loadDefinition(url, STUDY_FILE), options);
  const workers = options.workers ?? availableParallelism();
  if (!Number.isSafeInteger(workers) || workers < 1)
    throw new RangeError(`sweep: workers must be a whole number ≥ 1, got ${String(workers)}`);
  const { onProgress, workers: _, ...plain } = options;
  const total = plan.tasks.length;
  const range = shard === undefined ? { from: 0, to: total } : shardRange(total, shard);
  // Loaded on demand, so importing computesim never loads node:worker_threads.
  const { runOnWorkers } = await import('./workerPool.js');
  const count = Math.min(workers, Math.max(1, range.to - range.from));
  const fleets = await runOnWorkers(url, plain, range, count, onProgress);
  return { shape: sweepShape(plan), fleets, range };
}
