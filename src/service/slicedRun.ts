/**
 * Long clock moves of a served simulation (an advance over years, a run until idle over a busy
 * fleet) run in slices of a few milliseconds each, handing the event loop back in between, so the
 * server keeps answering other requests while the clock moves; runs under way at once take turns
 * (`sliceTurns.ts`). A slice ends when its time is up, read between small chunks of timers; the
 * work done is the same as in one call, so the log is too. Runtime-neutral: the memory check is
 * passed in (`memoryFull.ts` is node's).
 */
import type { ErrorCode } from './errorTable.js';
import { nextSliceTurn } from './sliceTurns.js';

/** What one slice reports: finished, more to do, or out of time (`runUntilIdle`'s `within`). */
export type SliceResult = 'done' | 'more' | 'deadline';

/** Why a sliced run stopped before finishing, said to the client. */
export interface SliceStop {
  readonly code: ErrorCode;
  readonly message: string;
}

/** How a sliced run goes. */
export interface SlicedRun {
  /**
   * Runs at most `maxTimers` timers (or events: whatever the run counts). A slice is one or more
   * such calls, until its time is up.
   */
  slice(maxTimers: number): SliceResult;
  /**
   * Called after every slice with what it reported (flush to disk, check that the run may go on):
   * a `SliceStop` ends the run there.
   */
  afterSlice(result: SliceResult): SliceStop | undefined;
  /** Whether memory is too full to go on (default: no check). */
  memoryFull?(): SliceStop | undefined;
  /** The wall clock slices are timed by, in ms (default `performance.now`; tests pass their own). */
  readonly clock?: () => number;
}

/**
 * Wall time a slice aims at, in ms, what comes after it included (writing its events to the state
 * file takes about as long as making them): short enough that other clients barely notice.
 */
export const SLICE_MS = 15;
/**
 * Wall time of one call of `slice` within a slice, in ms: the clock is read between calls, so a
 * slice ends within about this of its time even when the cost of its timers changes (a day when
 * thousands of projects prune their operations at once), where a slice sized by a count of timers
 * ran 200-500 ms.
 */
export const CHUNK_MS = 1;
/** Timers of the first slice: one call, the same on every machine (tests rely on it). */
const FIRST_SLICE = 1_000;

/** Runs `run` slice by slice; resolves to how it ended. */
export async function runSliced(run: SlicedRun): Promise<SliceResult | SliceStop> {
  const clock = run.clock ?? (() => performance.now());
  /** Timers a call of `slice` takes, sized to take about CHUNK_MS. */
  let chunk = FIRST_SLICE;
  /** Time a slice may spend making: the rest of SLICE_MS is for what comes after it. */
  let making = 0;
  for (;;) {
    const started = clock();
    let result: SliceResult;
    let made: number;
    do {
      const before = clock();
      result = run.slice(chunk);
      const after = clock();
      made = after - started;
      chunk = Math.max(
        1,
        Math.min(1_000_000, Math.round((chunk * CHUNK_MS) / Math.max(after - before, 0.01))),
      );
    } while (result === 'more' && made < making);
    const stopped = run.afterSlice(result);
    // The event loop was held for both: the next slice makes for its share of SLICE_MS.
    const took = clock() - started;
    if (stopped !== undefined) return stopped;
    if (result !== 'more') return result;
    const full = run.memoryFull?.();
    if (full !== undefined) return full;
    making = SLICE_MS * Math.min(1, Math.max(0.1, made / Math.max(took, 0.01)));
    await nextSliceTurn();
  }
}
