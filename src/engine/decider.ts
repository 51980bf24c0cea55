/**
 * The contract between the generic engine and a domain model: decide (command → events or a
 * rejection), evolve (event → state change on an immer draft) and the timers an event arms.
 */
import type { Draft } from 'immer';
import type { RandomSource } from '../core/randomSource.js';
import type { Touch } from './dirtyPaths.js';
import type { LoggedEvent, Unstamped } from './loggedEvent.js';

/** What `decide` may read besides state: the virtual time and seeded random streams. */
export interface DecideContext {
  /** Virtual time of the command, epoch milliseconds. */
  readonly now: number;
  /** The `seq` the command's first event will get: unique per command, usable to name things. */
  readonly nextSeq: number;
  /**
   * The random stream for one purpose within this command. Streams are keyed by the seed, the
   * purpose and the position of the command in the log, so draws for one purpose never shift
   * another's, and a replayed simulation draws exactly what the original would have.
   */
  random(purpose: string): RandomSource;
  /**
   * The random stream for one purpose and an index of the caller's choosing (for example the
   * number of a workload's session), independent of where the command sits in the log: draws that
   * must come out the same whatever else happened (common random numbers across configurations).
   * A function, not a method: handlers hand it on to the generators that draw.
   */
  readonly stream: (purpose: string, index: number) => RandomSource;
}

/**
 * Arms a timer: fire `timer` at `due`. Background timers (periodic checks) do not keep a run from
 * being idle. A callback rather than a returned list, so the hot loop allocates nothing for it.
 *
 * A timer armed with a `key` replaces the pending timer armed with the same key, which then never
 * fires (unless that one is the same timer, equal field for field, due at the same time: then it
 * stays, and the new one is not armed). Use a key only where a newer timer makes the pending one
 * stale, so that dropping it changes no event, only the memory a long wait would hold (a check
 * armed far ahead, again and again) and the instants where a run that stops at the next timer
 * (a step, an idle run at its deadline) would have stopped for nothing.
 */
export type Arm<T> = (due: number, timer: T, background?: boolean, key?: string) => void;

/**
 * What `decide` returns: the events of an accepted command, or why it is refused. A refusal may
 * still carry `records`: record-only events (see `isRecordOnly`) that say what was refused, such as
 * a request turned away for metrics to count. The engine appends them; they change no state.
 */
export type Decided<E, R> =
  | { readonly ok: true; readonly value: E[] }
  | { readonly ok: false; readonly error: R; readonly records?: readonly E[] };

/**
 * A domain model the engine can run. `S` state, `C` commands, `E` events, `T` timers, `R` rejections.
 * All functions are pure apart from `evolve`, which mutates only the draft it is given.
 *
 * `evolve` is an immer-style draft handler. The engine runs it on an immer draft where structural
 * sharing pays (`stateAt`), and in the hot loop on a private mutable working state, publishing an
 * immutable snapshot at each call boundary. For that, `evolve` names every path it changes through
 * `touch`.
 */
export interface Decider<S, C, E extends LoggedEvent, T, R> {
  /** State before any event. */
  initialState(): S;
  /**
   * Validates `command` against `state`; returns the events it causes, or why it is refused (with
   * the record-only events the refusal leaves in the log, if any).
   */
  decide(state: S, command: C, context: DecideContext): Decided<Unstamped<E>, R>;
  /**
   * Applies one event to the draft. Total: it never validates and never refuses. When given
   * `touch`, it calls it with the path of every object it adds, deletes, replaces or changes
   * (touching an entry's path covers the record holding it): when the next snapshot is published,
   * each object along a touched path is copied shallowly, the object where the path ends is copied
   * with all it holds, and everything else is shared with the previous snapshot.
   */
  evolve(draft: Draft<S>, event: E, touch?: Touch): void;
  /** Arms the timers `event` sets, given the state right after it. Called live and on replay alike. */
  armTimers(event: E, state: S, arm: Arm<T>): void;
  /** The internal command a fired timer becomes; `decide` checks whether it still applies. */
  commandForTimer(timer: T): C;
  /**
   * Whether `event` only records an observation (a refused request, say) and changes no state.
   * Such events do not move the position random streams are keyed by, so recording one leaves
   * every later draw as it would have been without it. Default: no event is.
   */
  isRecordOnly?(event: E): boolean;
}
