/**
 * Events of the control plane: facts in the past tense, carrying every value `evolve` needs (ids,
 * drawn durations, resolved settings), so replay never draws random numbers or reads the profile.
 */
import type { ComputeState, ComputeType } from '../domain/computeState.js';
import type { OperationAction } from '../domain/operationAction.js';
import type { EngineEvent } from '../engine/loggedEvent.js';

interface Stamp {
  readonly at: number;
  readonly seq: number;
}

/** A project was created (its default branch and compute follow as their own events). */
export interface ProjectCreated extends Stamp {
  readonly type: 'ProjectCreated';
  readonly projectId: string;
  readonly name: string;
  readonly regionId: string;
  readonly defaultBranchId: string;
}

/** A branch was created. */
export interface BranchCreated extends Stamp {
  readonly type: 'BranchCreated';
  readonly projectId: string;
  readonly branchId: string;
  readonly name: string;
  readonly parentId?: string;
  readonly isDefault: boolean;
}

/** A compute was created, with every initial setting resolved. */
export interface EndpointCreated extends Stamp {
  readonly type: 'EndpointCreated';
  readonly projectId: string;
  readonly branchId: string;
  readonly endpointId: string;
  readonly endpointType: ComputeType;
  readonly name?: string;
  readonly host: string;
  readonly proxyHost: string;
  readonly regionId: string;
  readonly minCu: number;
  readonly maxCu: number;
  readonly suspendTimeoutSeconds: number;
  readonly poolerEnabled: boolean;
  readonly poolerMode: 'transaction' | 'session';
  readonly disabled: boolean;
  readonly creationSource: string;
  readonly provisioner: string;
}

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
  /** The operation this one waits for, when it is `scheduling`. */
  readonly afterId?: string;
}

/** A `scheduling` operation started running. */
export interface OperationStarted extends Stamp {
  readonly type: 'OperationStarted';
  readonly projectId: string;
  readonly operationId: string;
}

/** A running operation finished successfully. */
export interface OperationFinished extends Stamp {
  readonly type: 'OperationFinished';
  readonly projectId: string;
  readonly operationId: string;
}

/** A compute's current and pending state changed (`pendingState: null` clears it). */
export interface ComputeStateChanged extends Stamp {
  readonly type: 'ComputeStateChanged';
  readonly projectId: string;
  readonly endpointId: string;
  readonly currentState: ComputeState;
  readonly pendingState: ComputeState | null;
}

/** Every domain event. */
export type DomainEvent =
  | ProjectCreated
  | BranchCreated
  | EndpointCreated
  | OperationCreated
  | OperationStarted
  | OperationFinished
  | ComputeStateChanged;

/** Every event of a control-plane log: the engine's own (header, clock marks) and the domain's. */
export type SimEvent = EngineEvent | DomainEvent;

/** The event type names, for validating logs read from outside. */
export const DOMAIN_EVENT_TYPES: readonly DomainEvent['type'][] = [
  'ProjectCreated',
  'BranchCreated',
  'EndpointCreated',
  'OperationCreated',
  'OperationStarted',
  'OperationFinished',
  'ComputeStateChanged',
];
