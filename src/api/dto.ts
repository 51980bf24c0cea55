/**
 * DTO mapping: state records to the exact JSON of the public v2 API. snake_case and ISO timestamps
 * live here and nowhere else.
 */
// Every timestamp of a body is in whole seconds, as the real service writes them.
import { formatBodyInstant as formatInstant } from './bodyInstant.js';
import type { BranchState, EndpointState, OperationState, ProjectState } from '../model/state.js';

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
