/**
 * A whole sweep on worker threads: every run of the plan sent to the cell threads, the fleets'
 * metrics gathered in task order. Loaded by `sweepStudyFile` on demand only, so the root entry stays
 * free of node:worker_threads.
 */
import type { FleetMetrics } from '../projection/metrics.js';
import { CellThreads } from './cellThreads.js';
import type { SweepOptions, SweepProgress } from './sweepPlan.js';

/** Runs tasks `[from, to)` of a sweep on `count` threads; resolves to their metrics in order. */
export async function runOnWorkers(
  url: string,
  options: SweepOptions,
  range: { readonly from: number; readonly to: number },
  count: number,
  onProgress: SweepProgress | undefined,
): Promise<FleetMetrics[]> {
  const threads = new CellThreads(count, [url]);
  const total = range.to - range.from;
  let done = 0;
  try {
    return await Promise.all(
      Array.from({ length: total }, async (_, i) => {
        const index = range.from + i;
        try {
          const fleet = await threads.run({ kind: 'sweep', url, options, index });
          onProgress?.(++done, total);
          return fleet as FleetMetrics;
        } catch (error) {
          throw runError(error as Error, index);
        }
      }),
    );
  } finally {
    await threads.close();
  }
}

function runError(error: Error, index: number): Error {
  return error.message.startsWith('a worker ')
    ? new Error(`sweep: ${error.message}`)
    : new Error(`sweep: run ${index + 1} failed: ${error.message}`);
}
