/**
 * The event kinds declared in one place (eventDeclaration.ts), by aggregate; `evolve`, `touches`,
 * `armTimers` and the narrator read their parts from here.
 */
import { COMPUTE_EVENTS } from './computeDeclarations.js';
import { CONNECTION_EVENTS } from './connectionDeclarations.js';
import { OPERATION_EVENTS } from './operationDeclarations.js';
import { PROJECT_EVENTS } from './projectDeclarations.js';
import { SETTINGS_EVENTS } from './settingsDeclarations.js';
import { WORKLOAD_EVENTS } from './workloadDeclarations.js';
import { partOf, type DeclarationPart, type Declarations } from './eventDeclaration.js';

/** A kind declared in one place. */
export type DeclaredKind =
  | keyof typeof COMPUTE_EVENTS
  | keyof typeof CONNECTION_EVENTS
  | keyof typeof OPERATION_EVENTS
  | keyof typeof PROJECT_EVENTS
  | keyof typeof SETTINGS_EVENTS
  | keyof typeof WORKLOAD_EVENTS;

const DECLARED_EVENTS: Declarations<DeclaredKind> = {
  ...COMPUTE_EVENTS,
  ...CONNECTION_EVENTS,
  ...OPERATION_EVENTS,
  ...PROJECT_EVENTS,
  ...SETTINGS_EVENTS,
  ...WORKLOAD_EVENTS,
};

/** How each declared kind changes the state. */
export const DECLARED_APPLY: DeclarationPart<DeclaredKind, 'apply'> = partOf(
  DECLARED_EVENTS,
  'apply',
);
/** The paths each declared kind changes. */
export const DECLARED_TOUCHES: DeclarationPart<DeclaredKind, 'touches'> = partOf(
  DECLARED_EVENTS,
  'touches',
);
/** The timers each declared kind arms. */
export const DECLARED_TIMERS: DeclarationPart<DeclaredKind, 'timers'> = partOf(
  DECLARED_EVENTS,
  'timers',
);
/** How the narrator tells each declared kind. */
export const DECLARED_NARRATE: DeclarationPart<DeclaredKind, 'narrate'> = partOf(
  DECLARED_EVENTS,
  'narrate',
);

/** Whether `event` is of a kind declared in one place (the rest still have their own tables). */
export function isDeclared<E extends { readonly type: string }>(
  event: E,
): event is Extract<E, { readonly type: DeclaredKind }> {
  return event.type in DECLARED_APPLY;
}
