/**
 * DTO mapping: state records to the exact JSON of the public v2 API. snake_case and ISO timestamps
 * live here and nowhere else.
 */
import { formatInstant } from '../core/instant.js';
import { connectionUri, poolerHost } from '../domain/connectionUri.js';
import type {
  BranchState,
  DatabaseState,
  EndpointState,
  OperationState,
  ProjectState,
  RoleState,
} from '../model/state.js';

/** Compute record as the API returns it. */
export function endpointDto(e: EndpointState): Record<string, unknown> {
  return {
    host: e.host,
    id: e.id,
    project_id: e.projectId,
    branch_id: e.branchId,
    ...(e.name === undefined ? {} : { name: e.name }),
    autoscaling_limit_min_cu: e.minCu,
    autoscaling_limit_max_cu: e.maxCu,
    region_id: e.regionId,
    type: e.type,
    current_state: e.currentState,
    ...(e.pendingState === undefined ? {} : { pending_state: e.pendingState }),
    settings: { pg_settings: { ...e.pgSettings } },
    pooler_enabled: e.poolerEnabled,
    pooler_mode: e.poolerMode,
    disabled: e.disabled,
    passwordless_access: e.passwordlessAccess,
    ...(e.lastActive === undefined ? {} : { last_active: formatInstant(e.lastActive) }),
    creation_source: e.creationSource,
    created_at: formatInstant(e.createdAt),
    updated_at: formatInstant(e.updatedAt),
    ...(e.startedAt === undefined ? {} : { started_at: formatInstant(e.startedAt) }),
    ...(e.suspendedAt === undefined ? {} : { suspended_at: formatInstant(e.suspendedAt) }),
    proxy_host: e.proxyHost,
    suspend_timeout_seconds: e.suspendTimeoutSeconds,
    provisioner: e.provisioner,
    ...(e.computeReleaseVersion === undefined
      ? {}
      : { compute_release_version: e.computeReleaseVersion }),
  };
}

/** Operation record as the API returns it. */
export function operationDto(o: OperationState): Record<string, unknown> {
  return {
    id: o.id,
    project_id: o.projectId,
    branch_id: o.branchId,
    ...(o.endpointId === undefined ? {} : { endpoint_id: o.endpointId }),
    action: o.action,
    status: o.status,
    ...(o.error === undefined ? {} : { error: o.error }),
    failures_count: o.failuresCount,
    ...(o.retryAt === undefined ? {} : { retry_at: formatInstant(o.retryAt) }),
    created_at: formatInstant(o.createdAt),
    updated_at: formatInstant(o.updatedAt),
    total_duration_ms: o.totalDurationMs,
  };
}

/** Branch record as the API returns it. */
export function branchDto(b: BranchState): Record<string, unknown> {
  return {
    id: b.id,
    project_id: b.projectId,
    ...(b.parentId === undefined ? {} : { parent_id: b.parentId }),
    name: b.name,
    current_state: b.currentState,
    state_changed_at: formatInstant(b.stateChangedAt),
    creation_source: 'console',
    default: b.isDefault,
    protected: false,
    cpu_used_sec: 0,
    active_time_seconds: 0,
    compute_time_seconds: 0,
    written_data_bytes: 0,
    data_transfer_bytes: 0,
    created_at: formatInstant(b.createdAt),
    updated_at: formatInstant(b.updatedAt),
  };
}

/** The fields a project record and a project list item share. */
function projectBase(p: ProjectState, proxyHost: string): Record<string, unknown> {
  return {
    id: p.id,
    platform_id: 'aws',
    region_id: p.regionId,
    name: p.name,
    provisioner: 'k8s-neonvm',
    pg_version: p.pgVersion,
    proxy_host: proxyHost,
    branch_logical_size_limit: 0,
    branch_logical_size_limit_bytes: 0,
    store_passwords: true,
    cpu_used_sec: 0,
    creation_source: 'console',
    history_retention_seconds: p.historyRetentionSeconds,
    created_at: formatInstant(p.createdAt),
    updated_at: formatInstant(p.updatedAt),
    owner_id: 'computesim-user',
  };
}

/** Project record as the API returns it (create, get, delete). */
export function projectDto(p: ProjectState, proxyHost: string): Record<string, unknown> {
  return {
    ...projectBase(p, proxyHost),
    consumption_period_start: formatInstant(p.createdAt),
    consumption_period_end: formatInstant(p.createdAt + 30 * 86_400_000),
    active_time_seconds: 0,
    compute_time_seconds: 0,
    written_data_bytes: 0,
    data_transfer_bytes: 0,
    data_storage_bytes_hour: 0,
  };
}

/** Project record as `GET /projects` lists it (the schema's ProjectListItem: fewer fields). */
export function projectListItemDto(p: ProjectState, proxyHost: string): Record<string, unknown> {
  return { ...projectBase(p, proxyHost), active_time: 0 };
}

/** The annotation the API attaches to a branch (none set in the simulator: an empty value). */
export function branchAnnotationDto(b: BranchState): Record<string, unknown> {
  return { object: { type: 'console/branch', id: b.id }, value: {} };
}

/** Role record as the API returns it; the password only where the API shows it (create, reset). */
export function roleDto(
  branchId: string,
  role: RoleState,
  withPassword = false,
): Record<string, unknown> {
  return {
    branch_id: branchId,
    name: role.name,
    ...(withPassword ? { password: role.password } : {}),
    protected: false,
    authentication_method: 'password',
    created_at: formatInstant(role.createdAt),
    updated_at: formatInstant(role.updatedAt),
  };
}

/** Database record as the API returns it. */
export function databaseDto(branchId: string, database: DatabaseState): Record<string, unknown> {
  return {
    id: database.id,
    branch_id: branchId,
    name: database.name,
    owner_name: database.ownerName,
    created_at: formatInstant(database.createdAt),
    updated_at: formatInstant(database.updatedAt),
  };
}

/**
 * The `connection_uris` of a create-project or create-branch response: for each compute, the URI of
 * the branch's only role and database (none when it has several of either, as the schema says).
 */
export function connectionUrisDto(
  branch: BranchState,
  endpoints: readonly EndpointState[],
): Record<string, unknown>[] {
  const [role, ...otherRoles] = branch.roles;
  const [database, ...otherDatabases] = branch.databases;
  if (role === undefined || database === undefined) return [];
  if (otherRoles.length > 0 || otherDatabases.length > 0) return [];
  return endpoints.map((endpoint) => {
    const target = {
      roleName: role.name,
      password: role.password,
      host: endpoint.host,
      databaseName: database.name,
    };
    return {
      connection_uri: connectionUri(target, false),
      connection_parameters: {
        database: database.name,
        password: role.password,
        role: role.name,
        host: endpoint.host,
        pooler_host: poolerHost(endpoint.host),
      },
    };
  });
}
