/**
 * Timers are data: what should happen at a time, if it still applies then. A fired timer becomes the
 * command of the same shape; `decide` ignores it when state has moved on (a stale timer).
 */

/** The running operation's attempt is over: it finishes, or fails. */
export interface CompleteOperation {
  readonly type: 'CompleteOperation';
  readonly projectId: string;
  readonly operationId: string;
}

/** Start an operation that was slow to be picked up, if it is still `scheduling`. */
export interface StartDelayedOperation {
  readonly type: 'StartDelayedOperation';
  readonly projectId: string;
  readonly operationId: string;
}

/** Retry a failed operation. */
export interface RetryOperation {
  readonly type: 'RetryOperation';
  readonly projectId: string;
  readonly operationId: string;
}

/** Suspend the compute if it has been idle without interruption since `idleSince`. */
export interface SuspendIdleCompute {
  readonly type: 'SuspendIdleCompute';
  readonly projectId: string;
  readonly endpointId: string;
  readonly idleSince: number;
}

/** Run the periodic availability check of a branch, if it is still the one due at `dueAt`. */
export interface CheckAvailability {
  readonly type: 'CheckAvailability';
  readonly projectId: string;
  readonly branchId: string;
  readonly dueAt: number;
}

/** Detach a project's storage if nobody has used it since `lastUsedAt`. */
export interface DetachIdleTenant {
  readonly type: 'DetachIdleTenant';
  readonly projectId: string;
  readonly lastUsedAt: number;
}

/** Session `index` of a workload arrives (background: workloads never end by themselves). */
export interface ArriveSession {
  readonly type: 'ArriveSession';
  readonly workloadId: string;
  readonly index: number;
}

/** A workload session is over: its client closes the connection (or a statement of it fails). */
export interface EndSession {
  readonly type: 'EndSession';
  readonly connectionId: string;
}

/** An autoscaling sample of a compute: resize it if its demand calls for another size. */
export interface Autoscale {
  readonly type: 'Autoscale';
  readonly projectId: string;
  readonly endpointId: string;
}

/**
 * Drop a project's old ended operations (background, daily), if the project was last recovered at
 * `recoveredAt` (absent: never), so a recovery starts one new daily chain and the old one ends.
 */
export interface PruneOperations {
  readonly type: 'PruneOperations';
  readonly projectId: string;
  readonly recoveredAt?: number;
}

/** A deleted project's recovery window is over, if it is still the deletion at `deletedAt`. */
export interface PurgeProject {
  readonly type: 'PurgeProject';
  readonly projectId: string;
  readonly deletedAt: number;
}

/** A deleted branch's recovery window is over, if it is still the deletion at `deletedAt`. */
export interface PurgeBranch {
  readonly type: 'PurgeBranch';
  readonly projectId: string;
  readonly branchId: string;
  readonly deletedAt: number;
}

/** A connection's statement is over, if it is still the one due at `until`. */
export interface EndQuery {
  readonly type: 'EndQuery';
  readonly connectionId: string;
  readonly until: number;
}

/** Every timer, which is also a command. */
export type TimerCommand =
  | CompleteOperation
  | RetryOperation
  | StartDelayedOperation
  | SuspendIdleCompute
  | CheckAvailability
  | DetachIdleTenant
  | ArriveSession
  | EndSession
  | Autoscale
  | PruneOperations
  | PurgeProject
  | PurgeBranch
  | EndQuery;
