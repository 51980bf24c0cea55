/**
 * Long clock moves of a served simulation (an advance over years, a run until idle over a busy
 * fleet) run in slices of a few milliseconds each, handing the event loop back in between, so the
 * server keeps answering other requests while the clock moves. Slice sizes adapt to how fast the
 * simulation runs; the work done is the same as in one call, so the log is too.
 */
import { getHeapStatistics } from 'node:v8';

/** What one slice reports: finished, more to do, or out of time (`runUntilIdle`'s `within`). */
export type SliceResult = 'done' | 'more' | 'deadline';

/** Why a sliced run stopped before finishing, said to the client. */
export interface SliceStop {
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

/** How a sliced run goes. */
export interface SlicedRun {
  /** Runs one slice of at most `maxTimers` timers. */
  slice(maxTimers: number): SliceResult;
  /**
   * Called after every slice (flush to disk, check that the run may go on): a `SliceStop` ends the
   * run there.
   */
  afterSlice(): SliceStop | undefined;
}

/** Wall time a slice aims at, in ms: short enough that other clients barely notice. */
const SLICE_MS = 15;
/** The share of the heap limit past which a long run stops rather than let the process die. */
export const HEAP_CEILING = 0.85;

/** Runs `run` slice by slice; resolves to how it ended. */
export async function runSliced(run: SlicedRun): Promise<SliceResult | SliceStop> {
  let maxTimers = 1_000;
  for (;;) {
    const started = performance.now();
    const result = run.slice(maxTimers);
    const took = performance.now() - started;
    const stop = run.afterSlice() ?? heapStop();
    if (result !== 'more') return result;
    if (stop !== undefined) return stop;
    maxTimers = Math.max(
      100,
      Math.min(1_000_000, Math.round((maxTimers * SLICE_MS) / Math.max(took, 1))),
    );
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** A stop when the heap is nearly full: the run ends where it is instead of the process dying. */
function heapStop(): SliceStop | undefined {
  const heap = getHeapStatistics();
  if (heap.used_heap_size < HEAP_CEILING * heap.heap_size_limit) return undefined;
  return {
    status: 507,
    code: 'insufficient_storage',
    message:
      `the server's memory is ${Math.round((100 * heap.used_heap_size) / heap.heap_size_limit)}% full ` +
      `(limit ${Math.round(heap.heap_size_limit / 2 ** 20)} MiB)`,
  };
}
