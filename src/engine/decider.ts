/**
 * The contract between the generic engine and a domain model: decide (command → events or a
 * rejection), evolve (event → state change on an immer draft) and the timers an event arms.
 */
import type { Draft } from 'immer';
import type { Result } from '../core/result.js';
import type { RandomSource } from '../core/randomSource.js';
import type { LoggedEvent, Unstamped } from './loggedEvent.js';

/** What `decide` may read besides state: the virtual time and seeded random streams. */
export interface DecideContext {
  /** Virtual time of the command, epoch milliseconds. */
  readonly now: number;
  /**
   * The random stream for one purpose within this command. Streams are keyed by the seed, the
   * purpose and the position of the command in the log, so draws for one purpose never shift
   * another's, and a replayed simulation draws exactly what the original would have.
   */
  random(purpose: string): RandomSource;
}

/** A timer to arm: fire `timer` at `due`. Background timers do not keep a run from being idle. */
export interface TimerRequest<T> {
  readonly due: number;
  readonly timer: T;
  readonly background?: boolean;
}

/**
 * A domain model the engine can run. `S` state, `C` commands, `E` events, `T` timers, `R` rejections.
 * All functions are pure apart from `evolve`, which mutates only the draft it is given.
 */
export interface Decider<S, C, E extends LoggedEvent, T, R> {
  /** State before any event. */
  initialState(): S;
  /** Validates `command` against `state`; returns the events it causes or why it is refused. */
  decide(state: S, command: C, context: DecideContext): Result<Unstamped<E>[], R>;
  /** Applies one event to the draft. Total: it never validates and never refuses. */
  evolve(draft: Draft<S>, event: E): void;
  /** Timers armed by `event`, given the state right after it. Called live and on replay alike. */
  timersFor(event: E, state: S): readonly TimerRequest<T>[] | undefined;
  /** The internal command a fired timer becomes; `decide` checks whether it still applies. */
  commandForTimer(timer: T): C;
}
