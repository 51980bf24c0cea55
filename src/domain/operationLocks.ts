/**
 * Which operations lock what: a mutating request is refused with 423 (safe to retry) while an
 * operation that locks its target has not reached a terminal status.
 *
 * Requests on a compute (update, restart, start, suspend) are locked by unfinished operations on that
 * compute; requests on a branch (create a compute on it, branch from it, delete it) by unfinished
 * operations on that branch. Availability checks run in the background and lock nothing.
 */
import { OPERATION_ACTIONS, type OperationAction } from './operationAction.js';

/** Actions whose unfinished operations lock their compute and branch. */
export const LOCKING_ACTIONS: ReadonlySet<OperationAction> = new Set(
  OPERATION_ACTIONS.filter((action) => action !== 'check_availability'),
);
