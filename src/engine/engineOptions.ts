/**
 * What an engine is configured with: its settings, the options of each run call, and the defaults
 * the engine falls back on when they are left out.
 */
import type { Duration } from '../core/duration.js';
import type { LogKeeping } from './eventLog.js';

/** Settings of one engine instance. */
export interface EngineOptions {
  readonly seed: number;
  /** Virtual start time, epoch milliseconds. */
  readonly start: number;
  /** Domain configuration recorded in the log header (JSON). */
  readonly config: unknown;
  /** Events between state snapshots kept for `stateAt` (also the batch size of long runs). */
  readonly snapshotEvery?: number;
  /** Timers one run call may fire before it throws `StepLimitError`. */
  readonly stepLimit?: number;
  /**
   * Events after a publish whose changed paths are recorded (the `touch` of `Decider.evolve`). Past that many, the
   * next publish walks the whole working state instead, which costs less than the paths of a long
   * stretch of events.
   */
  readonly trackedEvents?: number;
  /**
   * Where the log keeps its events (default `'memory'`): streamed to a sink, or not kept
   * (`'none'`). Without them in memory, `stateAt` answers only for the latest instant.
   */
  readonly log?: LogKeeping;
}

/** Per-call options of the run loops. */
export interface RunOptions {
  /** Timers this call may fire before it throws `StepLimitError`. */
  readonly stepLimit?: number;
  /**
   * `runUntil(predicate)` only: keep going when only background work (periodic checks) is pending.
   * Off by default, so a condition nothing in the foreground will make true fails at once.
   */
  readonly background?: boolean;
  /**
   * `runUntilIdle` only: the virtual time it may take before giving up with `StepLimitError` (a
   * duration; default `DEFAULT_IDLE_WITHIN`). Foreground work that outlasts it is work that never
   * settles: background checks waking computes again and again, or an operation that keeps failing.
   */
  readonly within?: Duration;
}

/** Default events between snapshots. */
export const DEFAULT_SNAPSHOT_EVERY = 100_000;
/** Default virtual time `runUntilIdle` may take: longer than any suspend timeout plus retries. */
export const DEFAULT_IDLE_WITHIN = '30d';
/** Default events after a publish whose changed paths are recorded. */
export const DEFAULT_TRACKED_EVENTS = 4_096;
/** Default timers one run call may fire. */
export const DEFAULT_STEP_LIMIT = 10_000_000;
