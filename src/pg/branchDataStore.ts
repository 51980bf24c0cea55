/**
 * What the Postgres front asks of whatever keeps the branches' data (an embedded Postgres per
 * database, `BranchDatabases`; or a Postgres server per branch, `PostgresClusters`): to follow the
 * control plane as it copies, deletes and puts branches to sleep.
 */
import type { BranchRef, DatabaseRef, DataPlace } from './dataPaths.js';

/** A database to copy into `to`: from `from`'s data as it is now, or (none) empty. */
export interface DatabaseCopy {
  readonly from?: DatabaseRef;
  readonly to: DatabaseRef;
}

/** A database of the control plane's state, by its id and its name (for `adoptLegacyLayout`). */
export interface NamedDatabase {
  readonly ref: DatabaseRef;
  readonly name: string;
}

/** The data behind the front, as the control plane changes it. */
export interface BranchDataStore {
  /** Databases (or servers) opened so far: a connect to an active compute opens none. */
  readonly opens: number;
  /** Databases (or servers) open now. */
  readonly openCount: number;
  /** Makes what the first client would otherwise wait for (a template, once per machine). */
  prepare(): Promise<void>;
  /** Moves data kept in an older layout to today's, once per root. */
  adoptLegacyLayout(databases: readonly NamedDatabase[]): Promise<void>;
  /** Makes databases copies of others as they are now (a new branch, a reset, a restore). */
  copyDatabases(copies: readonly DatabaseCopy[]): Promise<void>;
  /** Deletes data: a whole project's, a branch's, or one database's. */
  drop(place: DataPlace): Promise<void>;
  /** Deletes the databases of `branch` other than those with ids `keep`. */
  dropOthers(branch: BranchRef, keep: readonly number[]): Promise<void>;
  /**
   * A database renamed or given another owner by the control plane (named `name` before), where
   * the data keeps database names (the embedded engine keeps them by id, and needs nothing).
   */
  updateDatabase?(
    branch: BranchRef,
    name: string,
    changes: { readonly name?: string; readonly ownerName?: string },
  ): Promise<void>;
  /** Closes what serves `branch` (its computes have suspended); its data stays. */
  closeBranch(branch: BranchRef): Promise<void>;
  /** Closes everything; nothing opens afterwards. */
  close(): Promise<void>;
}
