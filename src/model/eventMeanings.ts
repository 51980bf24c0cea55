/**
 * Every event kind's meaning, read from its declaration (eventDeclaration.ts; one file of
 * declarations per aggregate): how it changes the state (`evolve`), the timers it arms
 * (`armTimers`) and its sentence for the narrator (`narrate`). The table has a declaration for every
 * kind of the union, or it does not compile.
 */
import type { Draft } from 'immer';
import type { Profile } from '../domain/profile.js';
import type { Arm } from '../engine/decider.js';
import type { Touch } from '../engine/dirtyPaths.js';
import { BRANCH_EVENTS } from './branchDeclarations.js';
import { COMPUTE_EVENTS } from './computeDeclarations.js';
import { CONNECTION_EVENTS } from './connectionDeclarations.js';
import { OPERATION_EVENTS } from './operationDeclarations.js';
import { PROJECT_EVENTS } from './projectDeclarations.js';
import { SETTINGS_EVENTS } from './settingsDeclarations.js';
import { WORKLOAD_EVENTS } from './workloadDeclarations.js';
import type {
  EventDeclaration,
  Declarations,
  EventKind,
  NarrationNames,
} from './eventDeclaration.js';
import type { DomainEvent } from './events.js';
import type { SimState } from './state.js';
import { NO_TOUCH, StateWriter } from './stateWriter.js';
import type { TimerCommand } from './timers.js';

const DECLARATIONS: Declarations<EventKind> = {
  ...BRANCH_EVENTS,
  ...COMPUTE_EVENTS,
  ...CONNECTION_EVENTS,
  ...OPERATION_EVENTS,
  ...PROJECT_EVENTS,
  ...SETTINGS_EVENTS,
  ...WORKLOAD_EVENTS,
};

/** The domain event type names, for validating logs read from outside. */
export const DOMAIN_EVENT_TYPES = Object.keys(DECLARATIONS) as readonly EventKind[];

/** The declaration of `event`'s kind, for any event of the union. */
function declarationOf(event: DomainEvent): EventDeclaration<DomainEvent> {
  return DECLARATIONS[event.type] as EventDeclaration<DomainEvent>;
}

/**
 * Applies events to a state being changed (a working state or an immer draft), each through the
 * one writer it keeps, which records the path of everything it changes through `touch`.
 */
export function evolver(): (draft: Draft<SimState>, event: DomainEvent, touch?: Touch) => void {
  const writer = new StateWriter();
  return (draft, event, touch = NO_TOUCH) => {
    declarationOf(event).apply(writer.bind(draft, touch), event);
  };
}

/**
 * Arms the timers `event` sets, given the state right after it. Called live and on replay alike,
 * so a replayed simulation holds the same agenda as the original.
 */
export function armTimers(
  event: DomainEvent,
  state: SimState,
  profile: Profile,
  arm: Arm<TimerCommand>,
): void {
  const { timers } = declarationOf(event);
  if (timers !== 'none') timers(event, state, profile, arm);
}

/** `event` in one plain-English sentence, or undefined for bookkeeping. */
export function narrate(event: DomainEvent, names: NarrationNames): string | undefined {
  return declarationOf(event).narrate(event, names);
}
