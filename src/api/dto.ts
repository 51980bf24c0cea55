/**
 * DTO mapping: state records to the exact JSON of the public v2 API. snake_case and ISO timestamps
 * live here and nowhere else.
 */
// Every timestamp of a body is in whole seconds, as the real service writes them.
import { formatBodyInstant as formatInstant } from './bodyInstant.js';
import { SIMULATED_ORG, SIMULATED_USER } from '../domain/simulatedAccount.js';
import { BRANCH_LOGICAL_SIZE_BYTES, DEFAULT_PROJECT_SETTINGS } from '../domain/projectDefaults.js';
import { projectUsageAt } from '../model/usage.js';
import { formatLsn } from '../domain/lsn.js';
import { connectionUri, poolerHost, type PostgresAddress } from '../domain/connectionUri.js';
import type {
  BranchState,
  DatabaseState,
  EndpointState,
  OperationState,
  ProjectEndpointDefaults,
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
    ...(b.parentLsn === undefined ? {} : { parent_lsn: formatLsn(b.parentLsn) }),
    ...(b.parentTimestamp === undefined
      ? {}
      : { parent_timestamp: formatInstant(b.parentTimestamp) }),
    name: b.name,
    current_state: b.currentState,
    state_changed_at: formatInstant(b.stateChangedAt),
    logical_size: BRANCH_LOGICAL_SIZE_BYTES,
    creation_source: 'console',
    default: b.isDefault,
    protected: b.protected,
    cpu_used_sec: 0,
    active_time_seconds: 0,
    compute_time_seconds: 0,
    written_data_bytes: 0,
    data_transfer_bytes: 0,
    created_at: formatInstant(b.createdAt),
    updated_at: formatInstant(b.updatedAt),
    ...(b.lastResetAt === undefined ? {} : { last_reset_at: formatInstant(b.lastResetAt) }),
    ...branchLifecycleFields(b),
  };
}

/**
 * The fields of a branch the real service adds about its creation (fidelity.md, audit 2026-11-23):
 * the state a branch being created is heading for, how it was made (always from its parent's data
 * here), and `primary`, the deprecated name of `default`.
 */
function branchLifecycleFields(b: BranchState): Record<string, unknown> {
  return {
    ...(b.currentState === 'init' ? { pending_state: 'ready' } : {}),
    init_source: 'parent-data',
    primary: b.isDefault,
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
    creation_source: 'console',
    history_retention_seconds: p.historyRetentionSeconds,
    ...(p.defaultEndpointSettings === undefined
      ? {}
      : { default_endpoint_settings: endpointDefaultsDto(p.defaultEndpointSettings) }),
    settings: structuredClone(DEFAULT_PROJECT_SETTINGS),
    created_at: formatInstant(p.createdAt),
    updated_at: formatInstant(p.updatedAt),
    owner_id: SIMULATED_USER.id,
    org_id: SIMULATED_ORG.id,
  };
}

/**
 * The usage counters of a project record, whole seconds: active time and CU-seconds (which the API
 * reports both as `compute_time_seconds` and `cpu_used_sec`), counted up to `now` for computes still
 * active (without `now`, up to their last start, resize or stop). They count from the project's
 * creation and do not reset per billing period. Nothing in the model writes data, so
 * `written_data_bytes` stays 0.
 */
function usageCounters(p: ProjectState, now: number | undefined): Record<string, number> {
  const usage = projectUsageAt(p, now ?? 0);
  const cuSeconds = Math.floor(usage.cuMs / 1000);
  return {
    active_time_seconds: Math.floor(usage.activeMs / 1000),
    compute_time_seconds: cuSeconds,
    cpu_used_sec: cuSeconds,
  };
}

/** A project's `default_endpoint_settings` as the API returns them. */
function endpointDefaultsDto(d: ProjectEndpointDefaults): Record<string, unknown> {
  return {
    ...(d.minCu === undefined ? {} : { autoscaling_limit_min_cu: d.minCu }),
    ...(d.maxCu === undefined ? {} : { autoscaling_limit_max_cu: d.maxCu }),
    ...(d.suspendTimeoutSeconds === undefined
      ? {}
      : { suspend_timeout_seconds: d.suspendTimeoutSeconds }),
    ...(d.pgSettings === undefined ? {} : { pg_settings: { ...d.pgSettings } }),
  };
}

/**
 * Project record as the API returns it (create, get, delete), its usage counted up to `now` (the
 * virtual time of the request: pass it, or computes still active are counted only to their last
 * change).
 */
export function projectDto(
  p: ProjectState,
  proxyHost: string,
  now?: number,
): Record<string, unknown> {
  const { active_time_seconds, compute_time_seconds, cpu_used_sec } = usageCounters(p, now);

  return {
    ...projectBase(p, proxyHost),
    cpu_used_sec,
    consumption_period_start: formatInstant(p.createdAt),
    consumption_period_end: formatInstant(p.createdAt + 30 * 86_400_000),
    active_time_seconds,
    compute_time_seconds,
    written_data_bytes: 0,
    data_transfer_bytes: 0,
    data_storage_bytes_hour: 0,
  };
}

/**
 * Project record as `GET /projects` lists it (the schema's ProjectListItem: fewer fields), usage
 * counted up to `now` as in `projectDto`.
 */
export function projectListItemDto(
  p: ProjectState,
  proxyHost: string,
  now?: number,
): Record<string, unknown> {
  const { active_time_seconds, cpu_used_sec } = usageCounters(p, now);
  return { ...projectBase(p, proxyHost), cpu_used_sec, active_time: active_time_seconds };
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
  front?: PostgresAddress,
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
      connection_uri: connectionUri(target, false, front),
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
