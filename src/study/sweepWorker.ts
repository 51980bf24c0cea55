/**
 * Worker-thread entry of a sweep: loads the study file, plans the same tasks as the main thread, and
 * runs the ones it is sent, posting each run's fleet metrics back (or the error that stopped it).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadDefinition } from '../files/loadDefinition.js';
import { STUDY_FILE } from './study.js';
import { runStudy } from './runStudy.js';
import { planSweep, type SweepOptions } from './sweepPlan.js';

/** What the main thread gives a sweep worker when it starts. */
export interface SweepWorkerData {
  readonly url: string;
  readonly options: SweepOptions;
}

/** Messages a sweep worker posts. */
export type SweepWorkerMessage =
  | { readonly kind: 'ready' }
  | { readonly kind: 'done'; readonly index: number; readonly fleet: unknown }
  | { readonly kind: 'failed'; readonly index: number; readonly message: string };

const port = parentPort;
if (port !== null) {
  const data = workerData as SweepWorkerData;
  const plan = planSweep(await loadDefinition(data.url, STUDY_FILE), data.options);
  port.on('message', (index: number) => {
    const task = plan.tasks[index];
    try {
      if (task === undefined) throw new RangeError(`no task ${index}`);
      const fleet = runStudy(plan.study, plan.points[task.point]!, task.seed);
      port.postMessage({ kind: 'done', index, fleet } satisfies SweepWorkerMessage);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      port.postMessage({ kind: 'failed', index, message } satisfies SweepWorkerMessage);
    }
  });
  port.postMessage({ kind: 'ready' } satisfies SweepWorkerMessage);
}
