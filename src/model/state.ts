/**
 * The simulation state: projects, each holding its branches, computes and operations. Collections
 * are nested per project so an update copies little when a draft is finished.
 */
import type { ComputeState, ComputeType } from '../domain/computeState.js';
import type { OperationAction } from '../domain/operationAction.js';
import type { OperationStatus } from '../domain/operationStatus.js';

/** A compute (endpoint). Times are epoch milliseconds; the API layer formats them. */
export interface EndpointState {
  readonly id: string;
  readonly projectId: string;
  readonly branchId: string;
  readonly type: ComputeType;
  readonly name?: string;
  readonly host: string;
  readonly proxyHost: string;
  readonly regionId: string;
  readonly minCu: number;
  readonly maxCu: number;
  readonly currentState: ComputeState;
  readonly pendingState?: ComputeState;
  /** 0 = the profile default, -1 = never suspend, otherwise seconds. */
  readonly suspendTimeoutSeconds: number;
  readonly poolerEnabled: boolean;
  readonly poolerMode: 'transaction' | 'session';
  readonly disabled: boolean;
  readonly passwordlessAccess: boolean;
  readonly pgSettings: Readonly<Record<string, string>>;
  readonly creationSource: string;
  readonly provisioner: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly lastActive?: number;
  readonly startedAt?: number;
  readonly suspendedAt?: number;
  /** Since when the compute has been active with nothing keeping it awake (scale-to-zero clock). */
  readonly idleSince?: number;
}

/** An operation the control plane recorded. */
export interface OperationState {
  readonly id: string;
  readonly projectId: string;
  readonly branchId: string;
  readonly endpointId?: string;
  readonly action: OperationAction;
  readonly status: OperationStatus;
  readonly failuresCount: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** How long the work takes once running, drawn from the latency profile. */
  readonly durationMs: number;
  readonly startedAt?: number;
  readonly totalDurationMs: number;
  /** The operation that waits for this one (status `scheduling` until this one finishes). */
  readonly nextId?: string;
  readonly error?: string;
  readonly retryAt?: number;
}

/** A branch of a project. */
export interface BranchState {
  readonly id: string;
  readonly projectId: string;
  readonly name: string;
  readonly parentId?: string;
  readonly isDefault: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A project and everything it owns. */
export interface ProjectState {
  readonly id: string;
  readonly name: string;
  readonly regionId: string;
  readonly defaultBranchId: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly branches: Readonly<Record<string, BranchState>>;
  readonly endpoints: Readonly<Record<string, EndpointState>>;
  /** Operations in creation order (object keys keep insertion order; UUIDs are never integer-like). */
  readonly operations: Readonly<Record<string, OperationState>>;
}

/** The whole simulated control plane. */
export interface SimState {
  readonly projects: Readonly<Record<string, ProjectState>>;
  /** Which project owns each compute id, for requests and connections that name only the compute. */
  readonly endpointOwners: Readonly<Record<string, string>>;
}

/** The state before any event. */
export function emptyState(): SimState {
  return { projects: {}, endpointOwners: {} };
}
