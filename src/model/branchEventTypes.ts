/**
 * The branch events: a branch created, changed, deleted, recovered, purged, preserved, restored,
 * made the default, its availability checks, roles and databases (their meaning is in
 * branchDeclarations.ts).
 */
import type { Stamp } from './eventStamp.js';
import type { BranchLifecycle } from './state.js';

/** A branch was created. */
export interface BranchCreated extends Stamp {
  readonly type: 'BranchCreated';
  readonly projectId: string;
  readonly branchId: string;
  readonly name: string;
  readonly parentId?: string;
  readonly isDefault: boolean;
  readonly currentState: BranchLifecycle;
  /** The parent's LSN at creation, where the new timeline starts (absent for a root branch). */
  readonly parentLsn?: number;
  /**
   * The roles it starts with: the owner of a new project's default branch, or a copy of the parent's
   * (same passwords). Absent: none (logs written before branches had roles).
   */
  readonly roles?: readonly NewRole[];
  /** The databases it starts with, with their drawn ids. Absent: none. */
  readonly databases?: readonly NewDatabase[];
}

/** A role as it is created: its name and drawn password. */
export interface NewRole {
  readonly name: string;
  readonly password: string;
}

/** A database as it is created: its drawn id, name and owner role. */
export interface NewDatabase {
  readonly id: number;
  readonly name: string;
  readonly ownerName: string;
}

/** A branch finished being created. */
interface BranchStateChanged extends Stamp {
  readonly type: 'BranchStateChanged';
  readonly projectId: string;
  readonly branchId: string;
  readonly currentState: BranchLifecycle;
}

/** A branch was renamed or (un)protected (PATCH). */
interface BranchUpdated extends Stamp {
  readonly type: 'BranchUpdated';
  readonly projectId: string;
  readonly branchId: string;
  readonly name?: string;
  readonly protected?: boolean;
}

/** A branch was deleted (its computes were deleted before it, as their own events). */
interface BranchDeleted extends Stamp {
  readonly type: 'BranchDeleted';
  readonly projectId: string;
  readonly branchId: string;
  /**
   * Kept, with its computes (idle), until then (absent: gone for good, as with `hard_delete`). Its
   * computes' own deletion events follow this event.
   */
  readonly recoverableUntil?: number;
}

/** A deleted branch came back, with the computes `endpointIds` (idle). */
interface BranchRecovered extends Stamp {
  readonly type: 'BranchRecovered';
  readonly projectId: string;
  readonly branchId: string;
  readonly endpointIds: readonly string[];
}

/** A deleted branch's recovery window ended: it is gone for good. */
interface BranchPurged extends Stamp {
  readonly type: 'BranchPurged';
  readonly projectId: string;
  readonly branchId: string;
}

/**
 * The previous state of a branch about to be restored was kept as a new branch (`preserve_under_name`):
 * the old lineage and timeline, and the old branch's children, which move to it.
 */
interface BranchPreserved extends Stamp {
  readonly type: 'BranchPreserved';
  readonly projectId: string;
  /** The new branch holding the previous state. */
  readonly branchId: string;
  /** The branch being restored. */
  readonly fromBranchId: string;
  readonly name: string;
  readonly parentId?: string;
  readonly parentLsn?: number;
  readonly parentTimestamp?: number;
  readonly timelineStartLsn: number;
  readonly timelineStartedAt: number;
  /** Children of the restored branch, re-parented to the preserved one. */
  readonly childIds: readonly string[];
  /** The restored branch's roles and databases, kept with its previous state. Absent: none. */
  readonly roles?: readonly NewRole[];
  readonly databases?: readonly NewDatabase[];
}

/** A branch was restored to a point in its own or another branch's history: a new timeline from it. */
interface BranchRestored extends Stamp {
  readonly type: 'BranchRestored';
  readonly projectId: string;
  readonly branchId: string;
  /** Its parent from now on (absent: a root branch). */
  readonly parentId?: string;
  /** The point on the parent it now starts from (absent for a root branch). */
  readonly parentLsn?: number;
  readonly parentTimestamp?: number;
  /** The LSN its new timeline starts at (the restored point). */
  readonly timelineStartLsn: number;
  /** The branch whose history it was restored from (itself for `^self`). Absent in older logs. */
  readonly sourceBranchId?: string;
}

/** A branch became the project's default; the previous default is no longer one. */
interface DefaultBranchSet extends Stamp {
  readonly type: 'DefaultBranchSet';
  readonly projectId: string;
  readonly branchId: string;
  readonly previousId: string;
}

/** The next availability check of a branch is due at `dueAt` (`null`: no more checks). */
interface AvailabilityCheckScheduled extends Stamp {
  readonly type: 'AvailabilityCheckScheduled';
  readonly projectId: string;
  readonly branchId: string;
  readonly dueAt: number | null;
  readonly intervalMs: number;
}

/** A role was created on a branch. */
interface RoleCreated extends Stamp, NewRole {
  readonly type: 'RoleCreated';
  readonly projectId: string;
  readonly branchId: string;
}

/** A role of a branch got a new password. */
interface RolePasswordReset extends Stamp {
  readonly type: 'RolePasswordReset';
  readonly projectId: string;
  readonly branchId: string;
  readonly name: string;
  readonly password: string;
}

/** A role was deleted from a branch (it owned no database). */
interface RoleDeleted extends Stamp {
  readonly type: 'RoleDeleted';
  readonly projectId: string;
  readonly branchId: string;
  readonly name: string;
}

/** A database was created on a branch. */
interface DatabaseCreated extends Stamp, NewDatabase {
  readonly type: 'DatabaseCreated';
  readonly projectId: string;
  readonly branchId: string;
}

/** A database of a branch was renamed or given another owner. */
interface DatabaseUpdated extends Stamp {
  readonly type: 'DatabaseUpdated';
  readonly projectId: string;
  readonly branchId: string;
  readonly name: string;
  readonly changes: { readonly name?: string; readonly ownerName?: string };
}

/** A database was deleted from a branch. */
interface DatabaseDeleted extends Stamp {
  readonly type: 'DatabaseDeleted';
  readonly projectId: string;
  readonly branchId: string;
  readonly name: string;
}

/** Every event of a branch, its roles and databases. */
export type BranchEvent =
  | BranchCreated
  | BranchStateChanged
  | BranchUpdated
  | BranchDeleted
  | BranchRecovered
  | BranchPurged
  | BranchPreserved
  | BranchRestored
  | DefaultBranchSet
  | AvailabilityCheckScheduled
  | RoleCreated
  | RolePasswordReset
  | RoleDeleted
  | DatabaseCreated
  | DatabaseUpdated
  | DatabaseDeleted;
