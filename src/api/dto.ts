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
import { DAY_MS } from '../core/duration.js';

// The builders below assign optional fields where they go instead of spreading `{}` or a one-key
// object: the same keys in the same order, without a temporary object and a copy per field (a
// request's answer is built from a dozen of these).

/** Compute record as the API returns it. */
export function endpointDto(e: EndpointState): Record<string, unknown> {
  const out: Record<string, unknown> = {
    host: e.host,
    id: e.id,
    project_id: e.projectId,
    branch_id: e.branchId,
  };
  if (e.name !== undefined) out['name'] = e.name;
  out['autoscaling_limit_min_cu'] = e.minCu;
  out['autoscaling_limit_max_cu'] = e.maxCu;
  out['region_id'] = e.regionId;
  out['type'] = e.type;
  out['current_state'] = e.currentState;
  if (e.pendingState !== undefined) out['pending_state'] = e.pendingState;
  out['settings'] = { pg_settings: { ...e.pgSettings } };
  out['pooler_enabled'] = e.poolerEnabled;
  out['pooler_mode'] = e.poolerMode;
  out['disabled'] = e.disabled;
  out['passwordless_access'] = e.passwordlessAccess;
  if (e.lastActive !== undefined) out['last_active'] = formatInstant(e.lastActive);
  out['creation_source'] = e.creationSource;
  out['created_at'] = formatInstant(e.createdAt);
  out['updated_at'] = formatInstant(e.updatedAt);
  if (e.startedAt !== undefined) out['started_at'] = formatInstant(e.startedAt);
  if (e.suspendedAt !== undefined) out['suspended_at'] = formatInstant(e.suspendedAt);
  out['proxy_host'] = e.proxyHost;
  out['suspend_timeout_seconds'] = e.suspendTimeoutSeconds;
  out['provisioner'] = e.provisioner;
  if (e.computeReleaseVersion !== undefined)
    out['compute_release_version'] = e.computeReleaseVersion;
  return out;
}

/** Operation record as the API returns it. */
export function operationDto(o: OperationState): Record<string, unknown> {
  const out: Record<string, unknown> = { id: o.id, project_id: o.projectId, branch_id: o.branchId };
  if (o.endpointId !== undefined) out['endpoint_id'] = o.endpointId;
  out['action'] = o.action;
  out['status'] = o.status;
  if (o.error !== undefined) out['error'] = o.error;
  out['failures_count'] = o.failuresCount;
  if (o.retryAt !== undefined) out['retry_at'] = formatInstant(o.retryAt);
  out['created_at'] = formatInstant(o.createdAt);
  out['updated_at'] = formatInstant(o.updatedAt);
  out['total_duration_ms'] = o.totalDurationMs;
  return out;
}

/** Branch record as the API returns it. */
export function branchDto(b: BranchState): Record<string, unknown> {
  const out: Record<string, unknown> = { id: b.id, project_id: b.projectId };
  if (b.parentId !== undefined) out['parent_id'] = b.parentId;
  if (b.parentLsn !== undefined) out['parent_lsn'] = formatLsn(b.parentLsn);
  if (b.parentTimestamp !== undefined) out['parent_timestamp'] = formatInstant(b.parentTimestamp);
  out['name'] = b.name;
  out['current_state'] = b.currentState;
  out['state_changed_at'] = formatInstant(b.stateChangedAt);
  out['logical_size'] = BRANCH_LOGICAL_SIZE_BYTES;
  out['creation_source'] = 'console';
  out['default'] = b.isDefault;
  out['protected'] = b.protected;
  out['cpu_used_sec'] = 0;
  out['active_time_seconds'] = 0;
  out['compute_time_seconds'] = 0;
  out['written_data_bytes'] = 0;
  out['data_transfer_bytes'] = 0;
  out['created_at'] = formatInstant(b.createdAt);
  out['updated_at'] = formatInstant(b.updatedAt);
  if (b.lastResetAt !== undefined) out['last_reset_at'] = formatInstant(b.lastResetAt);
  addBranchLifecycleFields(out, b);
  return out;
}

/**
 * Adds the fields of a branch the real service adds about its creation (fidelity.md, audit
 * 2026-11-23): the state a branch being created is heading for, how it was made (always from its
 * parent's data here), and `primary`, the deprecated name of `default`.
 */
function addBranchLifecycleFields(out: Record<string, unknown>, b: BranchState): void {
  if (b.currentState === 'init') out['pending_state'] = 'ready';
  out['init_source'] = 'parent-data';
  out['primary'] = b.isDefault;
}

/** The fields a project record and a project list item share (a new object the caller extends). */
function projectBase(p: ProjectState, proxyHost: string): Record<string, unknown> {
  const out: Record<string, unknown> = {
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
  };
  if (p.defaultEndpointSettings !== undefined)
    out['default_endpoint_settings'] = endpointDefaultsDto(p.defaultEndpointSettings);
  out['settings'] = defaultProjectSettings();
  out['created_at'] = formatInstant(p.createdAt);
  out['updated_at'] = formatInstant(p.updatedAt);
  out['owner_id'] = SIMULATED_USER.id;
  out['org_id'] = SIMULATED_ORG.id;
  return out;
}

/** A fresh copy of `DEFAULT_PROJECT_SETTINGS` (each body owns its objects), without a structured clone. */
function defaultProjectSettings(): Record<string, unknown> {
  return copyJson(DEFAULT_PROJECT_SETTINGS) as Record<string, unknown>;
}

/** A deep copy of a JSON value (plain objects, arrays, primitives). */
function copyJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyJson);
  const out: Record<string, unknown> = {};
  for (const key in value) out[key] = copyJson((value as Record<string, unknown>)[key]);
  return out;
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
  const out = projectBase(p, proxyHost);
  out['cpu_used_sec'] = cpu_used_sec;
  out['consumption_period_start'] = formatInstant(p.createdAt);
  out['consumption_period_end'] = formatInstant(p.createdAt + 30 * DAY_MS);
  out['active_time_seconds'] = active_time_seconds;
  out['compute_time_seconds'] = compute_time_seconds;
  out['written_data_bytes'] = 0;
  out['data_transfer_bytes'] = 0;
  out['data_storage_bytes_hour'] = 0;
  return out;
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
  const out = projectBase(p, proxyHost);
  out['cpu_used_sec'] = cpu_used_sec;
  out['active_time'] = active_time_seconds;
  return out;
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
