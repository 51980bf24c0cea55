/**
 * The event kinds declared in one place so far (eventDeclaration.ts), by aggregate; `evolve`,
 * `touches`, `armTimers` and the narrator read their parts from here.
 */
import { COMPUTE_EVENTS } from './computeEvents.js';
import { partOf } from './eventDeclaration.js';
import { OPERATION_EVENTS } from './operationEvents.js';

const DECLARED_EVENTS = { ...COMPUTE_EVENTS, ...OPERATION_EVENTS };

/** How each declared kind changes the state. */
export const DECLARED_APPLY = partOf(DECLARED_EVENTS, 'apply');
/** The paths each declared kind changes. */
export const DECLARED_TOUCHES = partOf(DECLARED_EVENTS, 'touches');
/** The timers each declared kind arms. */
export const DECLARED_TIMERS = partOf(DECLARED_EVENTS, 'timers');
/** How the narrator tells each declared kind. */
export const DECLARED_NARRATE = partOf(DECLARED_EVENTS, 'narrate');

/** A kind declared in one place. */
export type DeclaredKind = keyof typeof DECLARED_EVENTS;

/** Whether `event` is of a kind declared in one place (the rest still have their own tables). */
export function isDeclared<E extends { readonly type: string }>(
  event: E,
): event is Extract<E, { readonly type: DeclaredKind }> {
  return event.type in DECLARED_APPLY;
}
