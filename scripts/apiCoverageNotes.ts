/**
 * The hand-written part of docs/api-coverage.md: where a simulated operation differs from the real
 * service, keyed by operationId (facts from /work/shared/spec/fidelity.md, "Audit 2026-11-23", and
 * from what the route handlers read). Everything else in the page comes from the schema and the
 * route table. Edit here, then run `npm run docs:api-coverage`.
 */

/** Notes by operationId; an operation without a note behaves as the schema describes. */
export const COVERAGE_NOTES: Readonly<Record<string, string>> = {
  listProjects:
    'Pages with `limit` (1..400, default 10) and `cursor`; `search` matches a name or id substring; `org_id` is checked for shape only (one simulated account owns every project); `recoverable=true` lists the deleted projects within their 7-day window instead, with `deleted_at` and `recoverable_until`.',
  getProject:
    'Usage counters (`active_time_seconds`, `compute_time_seconds`, `cpu_used_sec`) count from creation up to the virtual now and never reset per billing period; `written_data_bytes` and storage stay 0 (nothing in the model writes data).',
  updateProject:
    '`name`, `history_retention_seconds` (records `apply_storage_config`) and `default_endpoint_settings`; `settings` (HIPAA, connection blocking, logical replication) are accepted and ignored.',
  deleteProject:
    "The project is kept recoverable for 7 days (the profile's `recoveryWindowMs`), its computes suspended and its unfinished operations cancelled; then it is gone for good.",
  recoverProject:
    'Within the window: the project back under the same ids with its branches, computes (idle), roles, databases and ended operations. A project that is not deleted is a 409 (the real answer is not documented); one past its window, a 404.',
  createProjectBranch:
    "Reads `branch.name`, `branch.parent_id` and `endpoints`; a child copies its parent's roles and databases. The other fields the schema allows (`parent_lsn`, `parent_timestamp`, `expires_at`, `protected`, `archived`, `init_source`) are accepted and ignored.",
  deleteProjectBranch:
    "The branch's computes go (a `suspend_compute` for each running one, then `delete_timeline`); the branch and its computes stay recoverable for 7 days unless `hard_delete=true`.",
  recoverProjectBranch:
    'Within the window: the branch back under the same id with its computes (idle), roles and databases. 409 when its name was taken since (names are unique per project), when its parent is deleted (recover that first) or when it is not deleted; 423 while an operation locks the project.',
  listProjectBranches:
    '`include_deleted=true` adds the deleted branches within their window, with `recovery` (`deletion_method` is always `user`: branches have no TTL here). Sorting and paging parameters are accepted and ignored.',
  restoreProjectBranch:
    'LSNs follow a simple model (a timeline advances 16 bytes per millisecond of virtual time); running computes restart (`suspend_compute`, `create_timeline`, `start_compute`) and their connections are dropped with 57P01.',
  updateProjectBranch: '`name` and `protected`; `expires_at` is accepted and ignored.',
  createProjectBranchRole:
    'Open connections are kept (the real service drops them when a role is created or its password reset).',
  getConsumptionHistoryPerProject:
    'Frames are the growth of the project counters over each period (they add up to the record); storage and data-transfer metrics are 0; deleted projects are left out.',
  createApiKey:
    'The created key is personal; `last_used_at` is not tracked. Keys given with `--api-key` or `addApiKey` are not listed and cannot be revoked.',
};
