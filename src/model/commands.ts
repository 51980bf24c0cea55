/**
 * Commands of the control plane, in the imperative: those a request or a client issues, and those a
 * fired timer issues. Values are parsed in shape by the edge (API, workloads); `decide` checks every
 * rule (existence, sizes, plan, conflicts).
 */
import type { WorkloadInput, WorkloadSpec } from '../workload/workloadSpec.js';
import type { SessionDemand } from './connectionEventTypes.js';
import type { ComputeType } from '../domain/computeState.js';
import type { EndpointSettings, ProjectEndpointDefaults } from './state.js';
import type { TimerCommand } from './timers.js';

/**
 * The API request that issued a command: its method and route pattern (e.g.
 * `/projects/{project_id}/endpoints/{endpoint_id}/start`). A refusal with 423 records it.
 */
interface RequestOrigin {
  readonly method: string;
  readonly route: string;
}

/** A command an API request may issue, which remembers the request (absent for other callers). */
export interface Requested {
  readonly request?: RequestOrigin;
}

/** A compute to create: its type and settings (defaults already filled in). */
export interface NewEndpoint {
  readonly endpointType: ComputeType;
  readonly settings: EndpointSettings;
}

/** Create a project with its default branch and a primary read-write compute. */
export interface CreateProject extends Requested {
  readonly type: 'CreateProject';
  readonly name?: string;
  readonly regionId?: string;
  readonly branchName?: string;
  /** The default branch's database (default `neondb`). */
  readonly databaseName?: string;
  /** The role owning it (default `{databaseName}_owner`). */
  readonly roleName?: string;
  readonly pgVersion?: number;
  readonly historyRetentionSeconds?: number;
  readonly endpoint: EndpointSettings;
  /** The `default_endpoint_settings` given, kept for computes created later. */
  readonly defaultEndpointSettings?: ProjectEndpointDefaults;
}

/** Delete a project and everything in it. */
export interface DeleteProject extends Requested {
  readonly type: 'DeleteProject';
  readonly projectId: string;
}

/** Create a branch from a parent (the default branch when absent), with computes or without. */
export interface CreateBranch extends Requested {
  readonly type: 'CreateBranch';
  readonly projectId: string;
  readonly name?: string;
  readonly parentId?: string;
  readonly endpoints: readonly NewEndpoint[];
}

/** Delete a branch that is not the default one, with its computes. */
export interface DeleteBranch extends Requested {
  readonly type: 'DeleteBranch';
  readonly projectId: string;
  readonly branchId: string;
  /** Gone for good at once, not kept for the recovery window (`hard_delete=true`). */
  readonly hardDelete?: boolean;
}

/** Bring back a deleted project within its recovery window. */
export interface RecoverProject extends Requested {
  readonly type: 'RecoverProject';
  readonly projectId: string;
}

/** Bring back a deleted branch within its recovery window. */
export interface RecoverBranch extends Requested {
  readonly type: 'RecoverBranch';
  readonly projectId: string;
  readonly branchId: string;
}

/** Create a compute on a branch. */
export interface CreateEndpoint extends NewEndpoint, Requested {
  readonly type: 'CreateEndpoint';
  readonly projectId: string;
  readonly branchId: string;
}

/** Change a compute's settings, or move it to another branch. */
export interface UpdateEndpoint extends Requested {
  readonly type: 'UpdateEndpoint';
  readonly projectId: string;
  readonly endpointId: string;
  readonly changes: Partial<EndpointSettings> & { readonly branchId?: string };
}

/** Delete a compute. */
export interface DeleteEndpoint extends Requested {
  readonly type: 'DeleteEndpoint';
  readonly projectId: string;
  readonly endpointId: string;
}

/** Suspend then start a compute, dropping its connections. */
export interface RestartEndpoint extends Requested {
  readonly type: 'RestartEndpoint';
  readonly projectId: string;
  readonly endpointId: string;
}

/** Start a compute. */
export interface StartEndpoint extends Requested {
  readonly type: 'StartEndpoint';
  readonly projectId: string;
  readonly endpointId: string;
}

/** Suspend a compute, dropping its connections. */
export interface SuspendEndpoint extends Requested {
  readonly type: 'SuspendEndpoint';
  readonly projectId: string;
  readonly endpointId: string;
}

/** A client connects to a compute (directly, or through the pooler). */
export interface OpenConnection {
  readonly type: 'OpenConnection';
  readonly endpointId: string;
  readonly pooled: boolean;
  /** Keep the record after the connection ends (handles need it; workload sessions do not). */
  readonly tracked: boolean;
  /** A workload session's demand (absent for plain connections). */
  readonly session?: SessionDemand;
}

/** Attach a workload that generates sessions from now on. */
export interface AttachWorkload {
  readonly type: 'AttachWorkload';
  readonly workload: WorkloadInput;
}

/**
 * Attach a workload already checked and resolved, as another run's log recorded it (a fork repeats
 * the attachments its original made after the fork point): the same spec, so the same sessions.
 */
export interface RepeatWorkload {
  readonly type: 'RepeatWorkload';
  readonly spec: WorkloadSpec;
}

/** A client closes its connection. */
export interface CloseConnection {
  readonly type: 'CloseConnection';
  readonly connectionId: string;
}

/**
 * The network or an operator drops the open connections of a compute (a fault to test clients
 * with); the compute stays up. Refused when the compute does not exist.
 */
export interface DropConnections {
  readonly type: 'DropConnections';
  readonly endpointId: string;
}

/** Create a personal API key named `name` (the API answers with its secret, once). */
export interface CreateApiKey extends Requested {
  readonly type: 'CreateApiKey';
  readonly name: string;
}

/** Revoke the API key `keyId`; refused with 404 when there is no such key, or it is revoked. */
export interface RevokeApiKey extends Requested {
  readonly type: 'RevokeApiKey';
  readonly keyId: number;
}

/** Change a project's name, history retention or default compute settings. */
export interface UpdateProject extends Requested {
  readonly type: 'UpdateProject';
  readonly projectId: string;
  readonly name?: string;
  readonly historyRetentionSeconds?: number;
  readonly defaultEndpointSettings?: ProjectEndpointDefaults;
}

/** Rename a branch or (un)protect it. */
export interface UpdateBranch extends Requested {
  readonly type: 'UpdateBranch';
  readonly projectId: string;
  readonly branchId: string;
  readonly name?: string;
  readonly protected?: boolean;
}

/** Make a branch the project's default (the previous default stops being one). */
export interface SetDefaultBranch extends Requested {
  readonly type: 'SetDefaultBranch';
  readonly projectId: string;
  readonly branchId: string;
}

/**
 * Restore a branch to a point of its own or another branch's history (at its head when neither an LSN
 * nor a timestamp is given), keeping its previous state as a new branch when `preserveUnderName` is set.
 */
export interface RestoreBranch extends Requested {
  readonly type: 'RestoreBranch';
  readonly projectId: string;
  readonly branchId: string;
  readonly sourceBranchId: string;
  readonly sourceLsn?: number;
  /** Epoch milliseconds. */
  readonly sourceTimestamp?: number;
  readonly preserveUnderName?: string;
}

/** A client runs a statement on its open connection for `durationMs` of virtual time. */
export interface RunQuery {
  readonly type: 'RunQuery';
  readonly connectionId: string;
  readonly durationMs: number;
}

/** A client opens (`BEGIN`) or ends (`COMMIT`/`ROLLBACK`) a transaction on its open connection. */
export interface SetTransaction {
  readonly type: 'SetTransaction';
  readonly connectionId: string;
  readonly open: boolean;
}

/** What every role or database command names: the branch it changes. */
interface OnBranch extends Requested {
  readonly projectId: string;
  readonly branchId: string;
}

/** Create a role on a branch, with a drawn password. */
export interface CreateRole extends OnBranch {
  readonly type: 'CreateRole';
  readonly name: string;
}

/** Delete a role that owns no database. */
export interface DeleteRole extends OnBranch {
  readonly type: 'DeleteRole';
  readonly name: string;
}

/** Give a role a new drawn password. */
export interface ResetRolePassword extends OnBranch {
  readonly type: 'ResetRolePassword';
  readonly name: string;
}

/** Create a database owned by a role of the same branch. */
export interface CreateDatabase extends OnBranch {
  readonly type: 'CreateDatabase';
  readonly name: string;
  readonly ownerName: string;
}

/** Rename a database or give it another owner. */
export interface UpdateDatabase extends OnBranch {
  readonly type: 'UpdateDatabase';
  readonly name: string;
  readonly changes: { readonly name?: string; readonly ownerName?: string };
}

/** Delete a database. */
export interface DeleteDatabase extends OnBranch {
  readonly type: 'DeleteDatabase';
  readonly name: string;
}

/** Every command a request or client can issue. */
export type RequestCommand =
  | CreateProject
  | DeleteProject
  | CreateBranch
  | DeleteBranch
  | RecoverProject
  | RecoverBranch
  | CreateEndpoint
  | UpdateEndpoint
  | DeleteEndpoint
  | RestartEndpoint
  | StartEndpoint
  | SuspendEndpoint
  | OpenConnection
  | CloseConnection
  | DropConnections
  | AttachWorkload
  | RepeatWorkload
  | CreateApiKey
  | RevokeApiKey
  | UpdateProject
  | UpdateBranch
  | SetDefaultBranch
  | RestoreBranch
  | RunQuery
  | SetTransaction
  | CreateRole
  | DeleteRole
  | ResetRolePassword
  | CreateDatabase
  | UpdateDatabase
  | DeleteDatabase;

/** Every command. */
export type Command = RequestCommand | TimerCommand;
