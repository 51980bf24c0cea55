/**
 * What a new project and a new branch show that no request sets in the simulator: the project's
 * `settings` (the public schema's ProjectSettingsData, the real service's defaults) and a branch's
 * logical size (a fixed figure: nothing in the model writes data).
 */

/**
 * The `settings` of every project: no IP allow list, no logical replication, public and VPC
 * connections allowed, HIPAA off, no quota (empty: unlimited), and a weekly maintenance window.
 */
export const DEFAULT_PROJECT_SETTINGS = {
  allowed_ips: { ips: [], protected_branches_only: false },
  enable_logical_replication: false,
  maintenance_window: { weekdays: [7], start_time: '02:00', end_time: '03:00' },
  block_public_connections: false,
  block_vpc_connections: false,
  hipaa: false,
  quota: {},
} as const;

/**
 * A branch's `logical_size` in bytes: the size of a fresh cluster with its `neondb` database (about
 * 30 MiB), the same for every branch, as computesim's statements are durations that write nothing.
 */
export const BRANCH_LOGICAL_SIZE_BYTES = 30 * 1024 * 1024;
