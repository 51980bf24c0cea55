/**
 * The hand-written part of docs/api-coverage.md: where a simulated operation differs from the real
 * service, keyed by operationId (facts from /work/shared/spec/fidelity.md, "Audit 2026-11-23", and
 * from what the route handlers read). Everything else in the page comes from the schema and the
 * route table. Edit here, then run `npm run docs:api-coverage`.
 */

/** Notes by operationId; an operation without a note behaves as the schema describes. */
export const COVERAGE_NOTES: Readonly<Record<string, string>> = {
  listProjects:
    'Pages with `limit` (1..400, default 10) and `cursor` only: `search`, `org_id` and `recoverable` are ignored. Usage counters are always 0.',
  getProject:
    'Usage counters (`active_time_seconds`, `compute_time_seconds`, `written_data_bytes`, …) are always 0; the consumption period is the 30 days from creation.',
  deleteProject:
    'The project is gone at once; the real service keeps a deleted project recoverable for 7 days (`recoverProject` is not simulated).',
  createProjectBranch:
    'Reads `branch.name`, `branch.parent_id` and `endpoints`; the other fields the schema allows (`parent_lsn`, `parent_timestamp`, `expires_at`, `protected`, `archived`, `init_source`) are accepted and ignored.',
  deleteProjectBranch:
    "The branch's computes go at once (their connections terminated) and one `delete_timeline` runs; the real service runs `suspend_compute` first and keeps the branch recoverable unless `hard_delete`.",
};
