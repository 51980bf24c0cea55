/**
 * The operation events: an operation created, started, failed and retried, ended (finished, error,
 * cancelled), and ended operations pruned (their meaning is in operationDeclarations.ts).
 */
import type { OperationAction } from '../domain/operationAction.js';
import type { LatencyProfile } from '../domain/profile.js';
import type { Stamp } from './eventStamp.js';
import type { OperationEffect } from './operationEffect.js';

/** The control plane recorded an operation, `running` at once or `scheduling` behind `afterId`. */
export interface OperationCreated extends Stamp {
  readonly type: 'OperationCreated';
  readonly projectId: string;
  readonly operationId: string;
  readonly action: OperationAction;
  readonly branchId: string;
  readonly endpointId?: string;
  readonly status: 'running' | 'scheduling';
  readonly durationMs: number;
  /** The latency range its attempts (retries included) are drawn from. */
  readonly latency: keyof LatencyProfile;
  /** The operation this one waits for, when it is `scheduling`. */
  readonly afterId?: string;
  /** A first operation the control plane is slow to pick up: it starts then (a fault). */
  readonly startAt?: number;
  readonly effects: {
    readonly running: readonly OperationEffect[];
    readonly finished: readonly OperationEffect[];
  };
}

/** An operation started running: a `scheduling` one whose predecessor finished, or a retry. */
interface OperationStarted extends Stamp {
  readonly type: 'OperationStarted';
  readonly projectId: string;
  readonly operationId: string;
  /** Duration of this attempt (a retry draws a new one). */
  readonly durationMs: number;
}

/** A running operation finished successfully. */
interface OperationFinished extends Stamp {
  readonly type: 'OperationFinished';
  readonly projectId: string;
  readonly operationId: string;
}

/** An attempt failed; the control plane retries at `retryAt`. */
interface OperationFailed extends Stamp {
  readonly type: 'OperationFailed';
  readonly projectId: string;
  readonly operationId: string;
  readonly error: string;
  readonly retryAt: number;
}

/** An operation gave up (status `error`, terminal). */
interface OperationErrored extends Stamp {
  readonly type: 'OperationErrored';
  readonly projectId: string;
  readonly operationId: string;
  /** The operation's compute, if it has one (a suspend that gives up defers scale to zero). */
  readonly endpointId?: string;
  readonly error: string;
}

/** An operation that had not finished was cancelled (its predecessor gave up, or its object went). */
interface OperationCancelled extends Stamp {
  readonly type: 'OperationCancelled';
  readonly projectId: string;
  readonly operationId: string;
}

/**
 * Ended operations of a project last updated before `before` were dropped from state (the log keeps
 * them); the next pruning is due at `nextAt`.
 */
interface OperationsPruned extends Stamp {
  readonly type: 'OperationsPruned';
  readonly projectId: string;
  readonly before: number;
  readonly nextAt: number;
}

/** Every event of an operation. */
export type OperationEvent =
  | OperationCreated
  | OperationStarted
  | OperationFinished
  | OperationFailed
  | OperationErrored
  | OperationCancelled
  | OperationsPruned;
