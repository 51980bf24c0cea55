/**
 * The simulation state: projects, each holding its branches, computes and operations, and the
 * client connections. Collections are nested per project so an update copies little on publish.
 */
import type { WorkloadSpec } from '../workload/workloadSpec.js';
import type { ComputeState, ComputeType } from '../domain/computeState.js';
import type { OperationAction } from '../domain/operationAction.js';
import type { OperationStatus } from '../domain/operationStatus.js';
import type { Plan } from '../domain/plan.js';
import type { LatencyProfile, Profile } from '../domain/profile.js';
import type { SqlError } from '../domain/sqlState.js';
import type { OperationEffect } from './operationEffect.js';

/** Pooler modes of the public API. */
type PoolerMode = 'transaction';

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
  /**
   * Open connections doing work (a workload session, a running statement, an open transaction):
   * only these keep the compute from scaling to zero.
   */
  readonly activeConnections: number;
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
  /** While active: up to when its usage is counted in its project's `usedActiveMs` and `usedCuMs`. */
  readonly usageCountedTo?: number;
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
  /**
   * What this operation does when it starts running and when it finishes; empty lists once it has
   * ended (nothing is left to carry out, and a fleet's month keeps millions of ended operations).
   */
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
  /** Protected from deletion (set with PATCH). */
  readonly protected: boolean;
  /** The LSN its timeline starts at (its creation point, or the point of its last restore). */
  readonly timelineStartLsn: number;
  /** When its timeline started (creation or last restore): its own history begins there. */
  readonly timelineStartedAt: number;
  /** The LSN on the parent it branched (or was last restored) from. */
  readonly parentLsn?: number;
  /** The instant on the parent it branched (or was last restored) from. */
  readonly parentTimestamp?: number;
  /** When it was last restored (reset). */
  readonly lastResetAt?: number;
  /** Its roles, in creation order (names unique within the branch). */
  readonly roles: readonly RoleState[];
  /** Its databases, in creation order (names unique; each owner is one of `roles`). */
  readonly databases: readonly DatabaseState[];
}

/** The default compute settings of a project (`default_endpoint_settings`) that PATCH set. */
export interface ProjectEndpointDefaults {
  readonly minCu?: number;
  readonly maxCu?: number;
  readonly suspendTimeoutSeconds?: number;
  readonly pgSettings?: Readonly<Record<string, string>>;
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
  /** Default settings of computes created from now on (absent: the simulator's defaults). */
  readonly defaultEndpointSettings?: ProjectEndpointDefaults;
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
  /**
   * Active time of its computes counted so far, ms (absent: none yet). A compute still active adds
   * the time since its `usageCountedTo` (see `projectUsageAt`).
   */
  readonly usedActiveMs?: number;
  /** CU × active time of its computes counted so far, CU·ms (absent: none yet). */
  readonly usedCuMs?: number;
  /** Its branches deleted without `hard_delete`, kept until their recovery window ends (absent: none). */
  readonly deletedBranches?: Readonly<Record<string, DeletedBranchState>>;
  /** When it was last recovered after a deletion (absent: never); its daily pruning counts from there. */
  readonly recoveredAt?: number;
}

/** A deleted branch kept for recovery: the branch and its computes, as they come back (idle). */
export interface DeletedBranchState {
  readonly branch: BranchState;
  readonly endpoints: Readonly<Record<string, EndpointState>>;
  readonly deletedAt: number;
  readonly recoverableUntil: number;
}

/** A deleted project kept for recovery: the project as it comes back (computes idle, no work under way). */
interface DeletedProjectState {
  readonly project: ProjectState;
  readonly deletedAt: number;
  readonly recoverableUntil: number;
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
  /** While a statement runs: when it ends. */
  readonly queryUntil?: number;
  /** A transaction is open (idle in transaction counts as active). */
  readonly inTransaction?: true;
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
  /** API keys created through the API, by id (absent: none yet). Revoked ones stay, marked. */
  readonly apiKeys?: Readonly<Record<string, ApiKeyState>>;
  /** Deleted projects still within their recovery window, by id (absent: none yet). */
  readonly deletedProjects?: Readonly<Record<string, DeletedProjectState>>;
  /** The profile in force since settings last changed (absent: the log header's, unchanged). */
  readonly profile?: Profile;
}

/** A personal API key created through the API. */
export interface ApiKeyState {
  readonly id: number;
  readonly name: string;
  /** The secret (the `Bearer` value). */
  readonly key: string;
  readonly createdAt: number;
  readonly revoked: boolean;
  readonly revokedAt?: number;
}

/** The state before any event. */
export function emptyState(): SimState {
  return { projects: {}, endpointOwners: {}, connections: {}, liveConnections: {}, workloads: {} };
}
