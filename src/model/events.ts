/**
 * Events of the control plane: facts in the past tense, carrying every value `evolve` needs (ids,
 * drawn durations, resolved settings), so replay never draws random numbers or reads the profile.
 */
import type { ComputeState, ComputeType } from '../domain/computeState.js';
import type { OperationAction } from '../domain/operationAction.js';
import type { Plan } from '../domain/plan.js';
import type { LatencyProfile, Profile } from '../domain/profile.js';
import type { EngineEvent } from '../engine/loggedEvent.js';
import type { WorkloadSpec } from '../workload/workloadSpec.js';
import type { OperationEffect } from './operationEffect.js';
import type { BranchLifecycle, EndpointSettings, ProjectEndpointDefaults } from './state.js';

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
  readonly plan: Plan;
  readonly pgVersion: number;
  readonly historyRetentionSeconds: number;
  /** The `default_endpoint_settings` the request gave (absent: none). */
  readonly defaultEndpointSettings?: ProjectEndpointDefaults;
}

/**
 * A project and everything in it were deleted: kept, with its computes idle and its unfinished
 * operations cancelled, until `recoverableUntil` (absent: gone for good at once).
 */
interface ProjectDeleted extends Stamp {
  readonly type: 'ProjectDeleted';
  readonly projectId: string;
  readonly recoverableUntil?: number;
}

/** A deleted project came back, with its branches and the computes `endpointIds` (idle). */
interface ProjectRecovered extends Stamp {
  readonly type: 'ProjectRecovered';
  readonly projectId: string;
  readonly endpointIds: readonly string[];
}

/** A deleted project's recovery window ended: it is gone for good. */
interface ProjectPurged extends Stamp {
  readonly type: 'ProjectPurged';
  readonly projectId: string;
}

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

/** A branch was deleted (its computes were deleted before it, as their own events). */
interface BranchDeleted extends Stamp {
  readonly type: 'BranchDeleted';
  readonly projectId: string;
  readonly branchId: string;
  /**
   * Kept, with its computes (idle), until then (absent: gone for good, as with `hard_delete`). Its
   * computes' own `EndpointDeleted` follow this event.
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

/** A compute was created, with every setting resolved. */
export interface EndpointCreated extends Stamp, EndpointSettings {
  readonly type: 'EndpointCreated';
  readonly projectId: string;
  readonly branchId: string;
  readonly endpointId: string;
  readonly endpointType: ComputeType;
  readonly host: string;
  readonly proxyHost: string;
  readonly regionId: string;
  readonly creationSource: string;
}

/** Settings of a compute changed (a branch change is a reassignment). */
interface EndpointUpdated extends Stamp {
  readonly type: 'EndpointUpdated';
  readonly projectId: string;
  readonly endpointId: string;
  readonly changes: Partial<EndpointSettings> & { readonly branchId?: string };
}

/** A compute was deleted. */
export interface EndpointDeleted extends Stamp {
  readonly type: 'EndpointDeleted';
  readonly projectId: string;
  readonly endpointId: string;
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

/** A compute's current and pending state changed (`pendingState: null` clears it). */
export interface ComputeStateChanged extends Stamp {
  readonly type: 'ComputeStateChanged';
  readonly projectId: string;
  readonly endpointId: string;
  readonly currentState: ComputeState;
  readonly pendingState: ComputeState | null;
  /** The compute image release it runs from now on (set when it becomes active). */
  readonly releaseVersion?: string;
}

/** The next availability check of a branch is due at `dueAt` (`null`: no more checks). */
interface AvailabilityCheckScheduled extends Stamp {
  readonly type: 'AvailabilityCheckScheduled';
  readonly projectId: string;
  readonly branchId: string;
  readonly dueAt: number | null;
  readonly intervalMs: number;
}

/** A project's storage was detached after long idleness, or attached again. */
interface TenantAttachmentChanged extends Stamp {
  readonly type: 'TenantAttachmentChanged';
  readonly projectId: string;
  readonly attached: boolean;
}

/**
 * What a workload session does once connected (absent on plain `sim.connect` connections): how long
 * it holds the connection and the demand it puts on the compute meanwhile.
 */
export interface SessionDemand {
  readonly holdMs?: number;
  /** CPU, thousandths of a vCPU. */
  readonly milliCpu?: number;
  /** Memory its queries hold, MB. */
  readonly memoryMb?: number;
  /** Data its queries keep touching (working set), MB. */
  readonly cacheMb?: number;
  /** Temporary disk its biggest statement needs, GB. */
  readonly tempDiskGb?: number;
}

/** A client asked for a connection and waits for the compute to start. */
interface ConnectionRequested extends Stamp, SessionDemand {
  readonly type: 'ConnectionRequested';
  readonly connectionId: string;
  readonly projectId: string;
  readonly endpointId: string;
  readonly pooled: boolean;
  readonly tracked: boolean;
}

/** A connection opened (at once, or after waiting for a start). */
interface ConnectionOpened extends Stamp, SessionDemand {
  readonly type: 'ConnectionOpened';
  readonly connectionId: string;
  readonly projectId: string;
  readonly branchId: string;
  readonly endpointId: string;
  readonly pooled: boolean;
  readonly tracked: boolean;
}

/** A statement of a session failed (for example 53100: more temporary disk than the compute has). */
interface StatementFailed extends Stamp {
  readonly type: 'StatementFailed';
  readonly connectionId: string;
  readonly projectId: string;
  readonly endpointId: string;
  readonly sqlstate: string;
  readonly message: string;
}

/**
 * A request was refused with 423 because an unfinished operation locked what it named. State does
 * not change; the fact is kept so reports can count how often clients ran into locks.
 */
interface RequestLocked extends Stamp {
  readonly type: 'RequestLocked';
  readonly projectId: string;
  readonly method: string;
  readonly route: string;
  readonly endpointId?: string;
  readonly branchId?: string;
}

/** Autoscaling changed a running compute's size (no restart, no disconnect). */
interface ComputeResized extends Stamp {
  readonly type: 'ComputeResized';
  readonly projectId: string;
  readonly endpointId: string;
  readonly fromCu: number;
  readonly toCu: number;
}

/** A workload was attached; its first session arrives at `firstAt` (`null`: it has none). */
interface WorkloadAttached extends Stamp {
  readonly type: 'WorkloadAttached';
  readonly workloadId: string;
  readonly spec: WorkloadSpec;
  readonly firstAt: number | null;
}

/**
 * Settings changed from this instant on (what a fork of a run applies at its fork point): the whole
 * profile in force, computes' settings, Poisson workloads' rates with their pending arrival redrawn.
 * Each part is absent when it does not change.
 */
export interface SettingsChanged extends Stamp {
  readonly type: 'SettingsChanged';
  readonly profile?: Profile;
  readonly computes?: readonly ComputeSettingsChange[];
  readonly workloads?: readonly WorkloadRatesChange[];
}

/** A compute's new settings in a `SettingsChanged`. */
export interface ComputeSettingsChange {
  readonly projectId: string;
  readonly endpointId: string;
  readonly changes: Partial<Pick<EndpointSettings, 'minCu' | 'maxCu' | 'suspendTimeoutSeconds'>>;
}

/** A workload's new spec in a `SettingsChanged`, and when its next session now arrives. */
export interface WorkloadRatesChange {
  readonly workloadId: string;
  readonly spec: WorkloadSpec;
  readonly nextAt: number | null;
}

/** Session `index` of a workload arrived (its connection events follow); the next is due at `nextAt`. */
interface SessionArrived extends Stamp {
  readonly type: 'SessionArrived';
  readonly workloadId: string;
  readonly index: number;
  readonly nextAt: number | null;
}

/** A connection was refused (at once, or after waiting). */
interface ConnectionRefused extends Stamp {
  readonly type: 'ConnectionRefused';
  readonly connectionId: string;
  readonly projectId?: string;
  readonly endpointId: string;
  readonly pooled: boolean;
  readonly tracked: boolean;
  readonly sqlstate: string;
  readonly message: string;
}

/** The client closed its connection. */
interface ConnectionClosed extends Stamp {
  readonly type: 'ConnectionClosed';
  readonly connectionId: string;
  readonly projectId: string;
  readonly endpointId: string;
}

/** The control plane terminated every connection of a compute. */
export interface ConnectionsDropped extends Stamp {
  readonly type: 'ConnectionsDropped';
  readonly projectId: string;
  readonly endpointId: string;
  readonly connectionIds: readonly string[];
  readonly sqlstate: string;
  readonly message: string;
}

/** A statement started on an open connection; it runs until `until` (the connection is active). */
interface QueryStarted extends Stamp {
  readonly type: 'QueryStarted';
  readonly connectionId: string;
  readonly projectId: string;
  readonly endpointId: string;
  readonly until: number;
}

/** The statement of a connection finished (the connection is idle again, unless in a transaction). */
interface QueryFinished extends Stamp {
  readonly type: 'QueryFinished';
  readonly connectionId: string;
  readonly projectId: string;
  readonly endpointId: string;
}

/** A connection opened (`open: true`) or ended (`false`) a transaction. */
interface TransactionChanged extends Stamp {
  readonly type: 'TransactionChanged';
  readonly connectionId: string;
  readonly projectId: string;
  readonly endpointId: string;
  readonly open: boolean;
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

/** A personal API key was created through the API (its secret drawn from the seed, shown once). */
export interface ApiKeyCreated extends Stamp {
  readonly type: 'ApiKeyCreated';
  readonly keyId: number;
  readonly name: string;
  /** The secret a client sends as `Authorization: Bearer <key>`. */
  readonly key: string;
}

/** An API key was revoked: from now on it is refused with 401. */
interface ApiKeyRevoked extends Stamp {
  readonly type: 'ApiKeyRevoked';
  readonly keyId: number;
}

/** A project's name, history retention or default compute settings changed (PATCH). */
interface ProjectUpdated extends Stamp {
  readonly type: 'ProjectUpdated';
  readonly projectId: string;
  readonly name?: string;
  readonly historyRetentionSeconds?: number;
  readonly defaultEndpointSettings?: ProjectEndpointDefaults;
}

/** A branch was renamed or (un)protected (PATCH). */
interface BranchUpdated extends Stamp {
  readonly type: 'BranchUpdated';
  readonly projectId: string;
  readonly branchId: string;
  readonly name?: string;
  readonly protected?: boolean;
}

/** A branch became the project's default; the previous default is no longer one. */
interface DefaultBranchSet extends Stamp {
  readonly type: 'DefaultBranchSet';
  readonly projectId: string;
  readonly branchId: string;
  readonly previousId: string;
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

/** Every domain event. */
export type DomainEvent =
  | ProjectCreated
  | ProjectDeleted
  | ProjectRecovered
  | ProjectPurged
  | BranchCreated
  | BranchStateChanged
  | BranchDeleted
  | BranchRecovered
  | BranchPurged
  | EndpointCreated
  | EndpointUpdated
  | EndpointDeleted
  | OperationCreated
  | OperationStarted
  | OperationFinished
  | OperationFailed
  | OperationErrored
  | OperationCancelled
  | ComputeStateChanged
  | AvailabilityCheckScheduled
  | TenantAttachmentChanged
  | ConnectionRequested
  | ConnectionOpened
  | ConnectionRefused
  | ConnectionClosed
  | ConnectionsDropped
  | StatementFailed
  | RequestLocked
  | ComputeResized
  | WorkloadAttached
  | SessionArrived
  | SettingsChanged
  | OperationsPruned
  | ApiKeyCreated
  | ApiKeyRevoked
  | ProjectUpdated
  | BranchUpdated
  | DefaultBranchSet
  | BranchPreserved
  | BranchRestored
  | QueryStarted
  | QueryFinished
  | TransactionChanged
  | RoleCreated
  | RolePasswordReset
  | RoleDeleted
  | DatabaseCreated
  | DatabaseUpdated
  | DatabaseDeleted;

/** Every event of a control-plane log: the engine's own (header, clock marks) and the domain's. */
export type SimEvent = EngineEvent | DomainEvent;
