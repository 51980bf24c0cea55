/**
 * What each kind of operation is, as one table keyed by action: what it locks, what it does to the
 * compute and the project's storage, what its failure means for the computes waiting on its chain.
 * Shared model code asks these named questions instead of comparing action names. (What one
 * operation does this time is decided when it is recorded and carried on it: model/operationEffect.ts.)
 */
import { own } from '../core/own.js';
import type { OperationAction } from './operationAction.js';

/** The properties of one operation action. */
export interface OperationKind {
  /**
   * What an unfinished operation of this kind locks against mutating requests (423, safe to retry):
   * its whole project, as the real service does (the profile's `locks.scope` may narrow that to its
   * own compute and branch), or nothing (background work, such as an availability check).
   */
  readonly locks: 'project' | 'nothing';
  /**
   * When it gives up, the computes waiting on its chain cannot come up: their waiting clients are
   * refused (08006) instead of the compute being woken for them.
   */
  readonly failureBlocksStart: boolean;
  /** It starts its compute: while one is unfinished, no other start is planned for that compute. */
  readonly startsCompute: boolean;
  /** It suspends its compute: one that gives up backs the next scale to zero off. */
  readonly releasesCompute: boolean;
  /**
   * It detaches the project's storage: work planned meanwhile waits behind a reattach; one that fails
   * leaves storage attached (the reattach queued behind it is cancelled); one that settles does not
   * arm the next detach check (a failing detach would be retried at once, forever).
   */
  readonly detachesStorage: boolean;
  /** It attaches the project's storage again: work planned while one is unfinished goes behind it. */
  readonly reattachesStorage: boolean;
}

/** An operation that locks its project and has no special role. */
const PLAIN: OperationKind = {
  locks: 'project',
  failureBlocksStart: false,
  startsCompute: false,
  releasesCompute: false,
  detachesStorage: false,
  reattachesStorage: false,
};

/** Every action's row: a new action in `OPERATION_ACTIONS` without one fails to compile. */
export const OPERATION_KINDS: { readonly [A in OperationAction]: OperationKind } = {
  apply_config: PLAIN,
  apply_storage_config: PLAIN,
  check_availability: { ...PLAIN, locks: 'nothing' },
  create_branch: { ...PLAIN, failureBlocksStart: true },
  create_timeline: { ...PLAIN, failureBlocksStart: true },
  delete_timeline: PLAIN,
  start_compute: { ...PLAIN, failureBlocksStart: true, startsCompute: true },
  suspend_compute: { ...PLAIN, releasesCompute: true },
  tenant_attach: PLAIN,
  tenant_detach: { ...PLAIN, detachesStorage: true },
  tenant_reattach: { ...PLAIN, failureBlocksStart: true, reattachesStorage: true },
  timeline_archive: PLAIN,
  timeline_unarchive: PLAIN,
};

/** A row for an action the table does not know (read from outside): no lock, no role. */
const UNKNOWN: OperationKind = { ...PLAIN, locks: 'nothing' };

/** The properties of `action`. */
export function operationKind(action: OperationAction): OperationKind {
  return own(OPERATION_KINDS, action) ?? UNKNOWN;
}

/** A property of an operation kind that is true or false, to find operations by. */
export type OperationRole = {
  readonly [K in keyof OperationKind]: OperationKind[K] extends boolean ? K : never;
}[keyof OperationKind];
