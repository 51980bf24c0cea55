/**
 * Long clock moves of a served simulation (an advance over years, a run until idle over a busy
 * fleet) run in slices of a few milliseconds each, handing the event loop back in between, so the
 * server keeps answering other requests while the clock moves; runs under way at once take turns
 * (`sliceTurns.ts`). Slice sizes adapt to how fast the simulation runs; the work done is the same
 * as in one call, so the log is too. Runtime-neutral: the memory check is passed in
 * (`memoryFull.ts` is node's).
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
  /** Runs one slice of at most `maxTimers` timers. */
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
/** Runs `run` slice by slice; resolves to how it ended. */
export async function runSliced(run: SlicedRun): Promise<SliceResult | SliceStop> {
  const clock = run.clock ?? (() => performance.now());
  let maxTimers = 1_000;
  for (;;) {
    const started = clock();
    const result = run.slice(maxTimers);
    const stopped = run.afterSlice(result);
    // The event loop was held for both: the next slice is sized by their sum.
    const took = clock() - started;
    if (stopped !== undefined) return stopped;
    if (result !== 'more') return result;
    const full = run.memoryFull?.();
    if (full !== undefined) return full;
    maxTimers = Math.max(
      100,
      Math.min(1_000_000, Math.round((maxTimers * SLICE_MS) / Math.max(took, 1))),
    );
    await nextSliceTurn();
  }
}
