/**
 * Sweeps: a study's points times seeds, each run on a fresh simulation, summarised with the mean
 * and 95% interval of every headline figure. `sweep` runs a study object in this thread;
 * `sweepStudyFile` runs a study file on worker threads (all cores by default). Results are assembled
 * in task order, so they are identical whatever the number of workers.
 */
import { availableParallelism } from 'node:os';
import { fileUrl, loadDefinition } from '../files/loadDefinition.js';
import { runStudy } from './runStudy.js';
import { STUDY_FILE, type StudyDefinition } from './study.js';
import { planSweep, type SweepOptions, type SweepProgress } from './sweepPlan.js';
import { sweepResult, type SweepResult } from './sweepResult.js';

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
  return sweepResult(plan, fleets);
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
  const url = fileUrl(file);
  const plan = planSweep(await loadDefinition(url, STUDY_FILE), options);
  const workers = options.workers ?? availableParallelism();
  if (!Number.isSafeInteger(workers) || workers < 1)
    throw new RangeError(`sweep: workers must be a whole number ≥ 1, got ${String(workers)}`);
  const { onProgress, workers: _, ...plain } = options;
  // Loaded on demand, so importing computesim never loads node:worker_threads.
  const { runOnWorkers } = await import('./workerPool.js');
  const fleets = await runOnWorkers(
    { url, options: plain },
    plan.tasks.length,
    Math.min(workers, plan.tasks.length),
    onProgress,
  );
  return sweepResult(plan, fleets);
}
