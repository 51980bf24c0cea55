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

/** Every timer, which is also a command. */
export type TimerCommand =
  CompleteOperation | RetryOperation | SuspendIdleCompute | CheckAvailability | DetachIdleTenant;
