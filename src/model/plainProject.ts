/**
 * A project as a plain value, out of the state being changed (an immer draft or a working object):
 * what deleting it or one of its branches keeps for a recovery.
 */
import { current, isDraft, type Draft } from 'immer';
import { archiveOf, operationsOf, recordOf } from './operationStore.js';
import type { ProjectState } from './state.js';

/** A project as a plain value with every operation it keeps, ended ones included. */
export function withEveryOperation(project: ProjectState): ProjectState {
  const whole = plain(project);
  return archiveOf(whole) === undefined
    ? whole
    : { ...whole, operations: recordOf(operationsOf(whole)) };
}

/** A project as a plain value (the engine applies events to drafts and to plain copies alike). */
export function plain<P extends ProjectState | undefined>(project: P): P {
  return isDraft(project) ? (current(project as Draft<ProjectState>) as P) : project;
}
