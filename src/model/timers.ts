/**
 * Timers are data: what should happen at a time, if it still applies then. A fired timer becomes the
 * command of the same shape; `decide` ignores it when state has moved on (a stale timer).
 */

/** Finish the running operation `operationId` (its planned duration has elapsed). */
export interface CompleteOperation {
  readonly type: 'CompleteOperation';
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

/** Every timer, which is also a command. */
export type TimerCommand = CompleteOperation | SuspendIdleCompute;
