/**
 * One declaration per event kind: how the event changes state (through a `StateWriter`, which
 * records what changed for publishing), the timers it arms, and how the narrator tells it, in one
 * place. Declarations are grouped by aggregate (computeDeclarations.ts, operationDeclarations.ts,
 * …); `evolve`, `armTimers` and the narrator read them, and the compiler refuses a declaration with
 * a part missing (an event that arms nothing says `timers: 'none'`).
 */
import type { Profile } from '../domain/profile.js';
import type { Arm } from '../engine/decider.js';
import type { DomainEvent } from './events.js';
import type { SimState } from './state.js';
import type { StateWriter } from './stateWriter.js';
import type { TimerCommand } from './timers.js';

/** An event kind's name. */
export type EventKind = DomainEvent['type'];

/** The event of one kind. */
export type EventOfKind<K extends EventKind> = Extract<DomainEvent, { readonly type: K }>;

/** What one kind of event means. */
export interface EventDeclaration<E extends DomainEvent> {
  /**
   * Applies the event to the state being changed (a working state or an immer draft): it reads
   * `write.state` and changes only what the writer hands out.
   */
  readonly apply: (write: StateWriter, event: E) => void;
  /** Arms the timers the event sets, given the state right after it; `'none'` when it sets none. */
  readonly timers:
    ((event: E, state: SimState, profile: Profile, arm: Arm<TimerCommand>) => void) | 'none';
  /** The event in one plain-English sentence (for demos, teaching, `replay`), or undefined. */
  readonly narrate: (event: E, names: NarrationNames) => string | undefined;
}

/** How a narration names what an event refers to by id (the narrator remembers earlier events). */
export interface NarrationNames {
  /** `operation restart_compute`, or the id's start when its creation was not told. */
  operation(id: string): string;
}

/** The declarations of some kinds, each under its name. */
export type Declarations<K extends EventKind> = {
  readonly [T in K]: EventDeclaration<EventOfKind<T>>;
};
