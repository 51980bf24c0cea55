/**
 * Sweeps: a study's points times seeds, each run on a fresh simulation, summarised with the mean
 * and 95% interval of every headline figure. `sweep` runs a study object in this thread;
 * `sweepStudyFile` runs a study file on worker threads (all cores by default). Results are assembled
 * in task order, so they are identical whatever the number of workers.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FleetMetrics } from '../projection/metrics.js';
import { fileUrl, isTypeScript, loadDefinition } from '../files/loadDefinition.js';
import { runStudy } from './runStudy.js';
import { STUDY_FILE, type StudyDefinition } from './study.js';
import { planSweep, type SweepOptions } from './sweepPlan.js';
import { sweepResult, type SweepResult } from './sweepResult.js';
import type { SweepWorkerData, SweepWorkerMessage } from './sweepWorker.js';

/** Called after each run with the runs done so far and the total. */
export type SweepProgress = (done: number, total: number) => void;

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
  const fleets = await runOnWorkers(
    { url, options: plain },
    plan.tasks.length,
    Math.min(workers, plan.tasks.length),
    onProgress,
  );
  return sweepResult(plan, fleets);
}

function runOnWorkers(
  data: SweepWorkerData,
  total: number,
  count: number,
  onProgress: SweepProgress | undefined,
): Promise<FleetMetrics[]> {
  return new Promise((resolve, reject) => {
    const results: FleetMetrics[] = new Array<FleetMetrics>(total);
    const pool: Worker[] = [];
    let next = 0;
    let done = 0;
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      for (const worker of pool) void worker.terminate();
      if (error === undefined) resolve(results);
      else reject(error);
    };
    const feed = (worker: Worker) => {
      if (next < total) worker.postMessage(next++);
    };
    for (let i = 0; i < count; i++) {
      const worker = startWorker(data);
      pool.push(worker);
      worker.on('message', (message: SweepWorkerMessage) => {
        if (message.kind === 'ready') return feed(worker);
        if (message.kind === 'failed')
          return finish(new Error(`sweep: run ${message.index + 1} failed: ${message.message}`));
        results[message.index] = message.fleet as FleetMetrics;
        done++;
        onProgress?.(done, total);
        if (done === total) finish();
        else feed(worker);
      });
      worker.on('error', (error) => finish(new Error(`sweep: a worker failed: ${error.message}`)));
      worker.on('exit', (code) => {
        // Workers only exit when terminated after the sweep; any earlier exit loses runs.
        finish(new Error(`sweep: a worker exited (code ${code}) before its runs were done`));
      });
    }
  });
}

/**
 * Starts a worker on the sweep entry. Running from TypeScript sources, the worker needs the loader
 * before its entry; from compiled code, the entry registers one itself if the study file needs it.
 */
function startWorker(data: SweepWorkerData): Worker {
  const entry = new URL(
    import.meta.url.endsWith('.ts') ? './sweepWorker.ts' : './sweepWorker.js',
    import.meta.url,
  ).href;
  const boot = isTypeScript(entry)
    ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})` +
      `.then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`
    : `import(${JSON.stringify(entry)})`;
  return new Worker(boot, { eval: true, workerData: data });
}
