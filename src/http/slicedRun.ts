/**
 * Long clock moves of a served simulation (an advance over years, a run until idle over a busy
 * fleet) run in slices of a few milliseconds each, handing the event loop back in between, so the
 * server keeps answering other requests while the clock moves. Slice sizes adapt to how fast the
 * simulation runs; the work done is the same as in one call, so the log is too.
 */
import { totalmem } from 'node:os';
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
  /** Whether memory is too full to go on (default: the heap or the process near its limit). */
  memoryFull?(): SliceStop | undefined;
}

/** Wall time a slice aims at, in ms: short enough that other clients barely notice. */
const SLICE_MS = 15;
/**
 * The share of the heap limit, and of the memory the machine (or its cgroup) has, past which a long
 * run stops rather than let the process die.
 */
export const MEMORY_CEILING = 0.85;

/** Runs `run` slice by slice; resolves to how it ended. */
export async function runSliced(run: SlicedRun): Promise<SliceResult | SliceStop> {
  let maxTimers = 1_000;
  for (;;) {
    const started = performance.now();
    const result = run.slice(maxTimers);
    const took = performance.now() - started;
    const stopped = run.afterSlice();
    if (stopped !== undefined) return stopped;
    if (result !== 'more') return result;
    const full = (run.memoryFull ?? memoryFull)();
    if (full !== undefined) return full;
    maxTimers = Math.max(
      100,
      Math.min(1_000_000, Math.round((maxTimers * SLICE_MS) / Math.max(took, 1))),
    );
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/**
 * A stop when memory is nearly full: the V8 heap near its limit, or the process (whose log lives
 * outside the heap) near what the machine or its cgroup allows.
 */
export function memoryFull(): SliceStop | undefined {
  const heap = getHeapStatistics();
  const rss = process.memoryUsage.rss();
  const constrained = process.constrainedMemory?.() ?? 0;
  const machine = constrained > 0 ? Math.min(constrained, totalmem()) : totalmem();
  const [used, limit, what] =
    heap.used_heap_size >= MEMORY_CEILING * heap.heap_size_limit
      ? [heap.used_heap_size, heap.heap_size_limit, 'heap']
      : rss >= MEMORY_CEILING * machine
        ? [rss, machine, 'memory']
        : [0, 0, ''];
  if (what === '') return undefined;
  return {
    status: 507,
    code: 'insufficient_storage',
    message:
      `the server's ${what} is ${Math.round((100 * used) / limit)}% full ` +
      `(limit ${Math.round(limit / 2 ** 20)} MiB)`,
  };
}
