/**
 * The simulation state: projects, each holding its branches, computes and operations, and the
 * client connections. Collections are nested per project so an update copies little on publish.
 */
import type { WorkloadSpec } from '../workload/workloadSpec.js';
import type { ComputeState, ComputeType } from '../domain/computeState.js';
import type { OperationAction } from '../domain/operationAction.js';
import type { OperationStatus } from '../domain/operationStatus.js';
import type { Plan } from '../domain/plan.js';
import type { LatencyProfile } from '../domain/profile.js';
import type { SqlError } from '../domain/sqlState.js';
import type { OperationEffect } from './operationEffect.js';

/** Pooler modes of the public API. */
export type PoolerMode = 'transaction';

/** The settings of a compute that requests can set. */
export interface EndpointSettings {
  readonly minCu: number;
  readonly maxCu: number;
  /** 0 = the profile default, -1 = never suspend, otherwise seconds. */
  readonly suspendTimeoutSeconds: number;
  readonly poolerEnabled: boolean;
  readonly poolerMode: PoolerMode;
  readonly disabled: boolean;
  readonly passwordlessAccess: boolean;
  readonly pgSettings: Readonly<Record<string, string>>;
  readonly provisioner: string;
  readonly name?: string;
}

/** A compute (endpoint). Times are epoch milliseconds; the API layer formats them. */
export interface EndpointState extends EndpointSettings {
  readonly id: string;
  readonly projectId: string;
  readonly branchId: string;
  readonly type: ComputeType;
  readonly host: string;
  readonly proxyHost: string;
  readonly regionId: string;
  readonly currentState: ComputeState;
  readonly pendingState?: ComputeState;
  readonly creationSource: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly lastActive?: number;
  readonly startedAt?: number;
  readonly suspendedAt?: number;
  /** Since when the compute has been active with nothing keeping it awake (scale-to-zero clock). */
  readonly idleSince?: number;
  /** Suspends that gave up since the compute was last suspended (scale to zero backs off). */
  readonly failedSuspends?: number;
  /** Direct connections open or waiting for the compute to start. */
  readonly directConnections: number;
  /** Pooled connections open or waiting. */
  readonly pooledConnections: number;
  /** Compute image release it runs (picked up at each start). */
  readonly computeReleaseVersion?: string;
  /** Size it runs at while active: the minimum at start, then what autoscaling chose. */
  readonly allocatedCu?: number;
  /** CPU demand of its open workload sessions, thousandths of a vCPU. */
  readonly loadMilliCpu: number;
  /** Memory held by its open workload sessions, MB. */
  readonly loadMemoryMb: number;
  /** Working set of its open workload sessions, MB. */
  readonly loadCacheMb: number;
  /** When the demand last changed (autoscaling waits a minute of lower demand to scale down). */
  readonly loadChangedAt?: number;
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
  /** Strictly increasing per project, in microseconds: the order of listings and their cursor. */
  readonly sortKey: number;
  /** How long one attempt takes once running, drawn from the latency profile. */
  readonly durationMs: number;
  /** The latency range its attempts are drawn from. */
  readonly latency: keyof LatencyProfile;
  readonly startedAt?: number;
  readonly totalDurationMs: number;
  /**
   * The operations that wait for this one (status `scheduling` until this one finishes): the next of
   * its chain, or, for a `tenant_reattach`, the first of every chain recorded while it was unfinished.
   */
  readonly nextIds?: readonly string[];
  /** What this operation does when it starts running and when it finishes. */
  readonly effects: {
    readonly running: readonly OperationEffect[];
    readonly finished: readonly OperationEffect[];
  };
  readonly error?: string;
  readonly retryAt?: number;
}

/** A Postgres role of a branch. */
export interface RoleState {
  readonly name: string;
  readonly password: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A database of a branch, owned by one of its roles. */
export interface DatabaseState {
  readonly id: number;
  readonly name: string;
  readonly ownerName: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** Branch states of the public API. */
export type BranchLifecycle = 'init' | 'ready';

/** A branch of a project. */
export interface BranchState {
  readonly id: string;
  readonly projectId: string;
  readonly name: string;
  readonly parentId?: string;
  readonly isDefault: boolean;
  readonly currentState: BranchLifecycle;
  readonly stateChangedAt: number;
  /** When the next availability check is due (absent: not checked, no compute). */
  readonly nextCheckAt?: number;
  readonly checkIntervalMs?: number;
  /** A connection opened on one of its computes since the last check. */
  readonly usedSinceCheck: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Its roles, in creation order (names unique within the branch). */
  readonly roles: readonly RoleState[];
  /** Its databases, in creation order (names unique; each owner is one of `roles`). */
  readonly databases: readonly DatabaseState[];
}

/** A project and everything it owns. */
export interface ProjectState {
  readonly id: string;
  readonly name: string;
  readonly regionId: string;
  readonly defaultBranchId: string;
  readonly plan: Plan;
  readonly pgVersion: number;
  readonly historyRetentionSeconds: number;
  /** Detached from storage after long idleness (reattached by the next operation it needs). */
  readonly detached: boolean;
  /** Last time a client used one of its computes (connections opening or closing), or its creation. */
  readonly lastUsedAt: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Largest operation sort key so far (microseconds). */
  readonly lastSortKey: number;
  readonly branches: Readonly<Record<string, BranchState>>;
  readonly endpoints: Readonly<Record<string, EndpointState>>;
  /** Operations in creation order (object keys keep insertion order; UUIDs are never integer-like). */
  readonly operations: Readonly<Record<string, OperationState>>;
  /** Ids of the operations not yet in a terminal status (for conflict checks). */
  readonly pendingOperations: Readonly<Record<string, true>>;
}

/** Connection states of `sim.connect` handles. */
export type ConnectionStatus = 'connecting' | 'open' | 'closed' | 'refused' | 'dropped';

/** A client connection. Ended ones stay (for their handles) unless opened with `track: false`. */
export interface ConnectionState {
  readonly id: string;
  readonly endpointId: string;
  readonly projectId?: string;
  readonly pooled: boolean;
  readonly status: ConnectionStatus;
  readonly requestedAt: number;
  readonly openedAt?: number;
  readonly endedAt?: number;
  readonly error?: SqlError;
  /** Whether the record stays after the connection ends (workload sessions drop it). */
  readonly tracked: boolean;
  /** A workload session's demand (absent for plain connections). */
  readonly holdMs?: number;
  readonly milliCpu?: number;
  readonly memoryMb?: number;
  readonly cacheMb?: number;
  readonly tempDiskGb?: number;
}

/** A workload attached to the simulation, and where its stream of sessions stands. */
export interface WorkloadState {
  readonly id: string;
  readonly spec: WorkloadSpec;
  /** Index of the next session to arrive. */
  readonly nextIndex: number;
  readonly nextAt: number | null;
}

/** The whole simulated control plane. */
export interface SimState {
  readonly projects: Readonly<Record<string, ProjectState>>;
  /** Which project owns each compute id, for requests and connections that name only the compute. */
  readonly endpointOwners: Readonly<Record<string, string>>;
  /** Connections by id: the live ones, and the ended ones that are tracked. */
  readonly connections: Readonly<Record<string, ConnectionState>>;
  /** Live (connecting or open) connection ids per compute. */
  readonly liveConnections: Readonly<Record<string, Readonly<Record<string, true>>>>;
  /** Attached workloads by id (`w1`, `w2`, … in the order they were attached). */
  readonly workloads: Readonly<Record<string, WorkloadState>>;
}

/** The state before any event. */
export function emptyState(): SimState {
  return { projects: {}, endpointOwners: {}, connections: {}, liveConnections: {}, workloads: {} };
}
