/**
 * The envelope every logged event shares, and the header event that opens every log so that a log
 * alone is enough to rebuild its simulation.
 */

/** Fields the engine stamps on every event: its kind, virtual time and position in the log. */
export interface LoggedEvent {
  readonly type: string;
  /** Virtual time, epoch milliseconds. */
  readonly at: number;
  /** Position in the log, from 0 (the header) upwards without gaps. */
  readonly seq: number;
}

/** An event as `decide` returns it, before the engine stamps `at` and `seq`. */
export type Unstamped<E> = E extends unknown ? Omit<E, 'at' | 'seq'> : never;

/** First event of every log: what is needed to rebuild the run (seed, start, resolved configuration). */
export interface SimulationStarted extends LoggedEvent {
  readonly type: 'SimulationStarted';
  readonly seed: number;
  /** Configuration as JSON (for the control plane: the fully resolved profile). */
  readonly config: unknown;
  /** Version of the log format; a reader refuses versions it does not know. */
  readonly format: number;
}

/**
 * Written when a public call leaves the clock past the last event (for example `advance('10m')` with
 * nothing due), so that a replay ends at the same virtual time as the original.
 */
interface ClockAdvanced extends LoggedEvent {
  readonly type: 'ClockAdvanced';
}

/** Events the engine itself writes; domains never see them in `evolve`. */
export type EngineEvent = SimulationStarted | ClockAdvanced;

/** Version of the log format written by this build. */
export const LOG_FORMAT = 1;
