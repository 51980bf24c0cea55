/**
 * What a command handler sees: the engine's context (time, random streams) plus the profile.
 */
import type { DecideContext, Decided } from '../engine/decider.js';
import type { Profile } from '../domain/profile.js';
import type { Rejection } from '../domain/rejection.js';
import type { Unstamped } from '../engine/loggedEvent.js';
import type { DomainEvent } from './events.js';
import type { SimState } from './state.js';

/** The engine context of a command, with the control-plane profile. */
export interface ModelContext extends DecideContext {
  readonly profile: Profile;
}

/** Events being decided, not yet stamped. */
export type Pending = Unstamped<DomainEvent>[];

/** Events a handler decides on, not yet stamped; or a refusal, with what it records. */
export type Decision = Decided<Unstamped<DomainEvent>, Rejection>;

/** A refused decision: the rejection, and the records it leaves in the log (if any). */
export type Refusal = Extract<Decision, { readonly ok: false }>;

/** A command handler: pure, reads state and context, returns events or a rejection. */
export type Handler<C> = (state: SimState, command: C, context: ModelContext) => Decision;
