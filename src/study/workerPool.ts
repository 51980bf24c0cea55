/**
 * The worker threads of a sweep: each runs tasks of the plan by index and posts back a fleet's
 * metrics. Loaded by `sweepStudyFile` on demand only, so the root entry stays free of
 * node:worker_threads (it loads in runtimes that lack it).
 */
import { Worker } from 'node:worker_threads';
import type { FleetMetrics } from '../projection/metrics.js';
import { isTypeScript } from '../files/loadDefinition.js';
import type { SweepProgress } from './sweepPlan.js';
import type { SweepWorkerData, SweepWorkerMessage } from './sweepWorker.js';

/** Runs `total` tasks on `count` workers; resolves to their fleets' metrics in task order. */
export function runOnWorkers(
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
