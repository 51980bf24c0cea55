/**
 * Compute image releases: a new release about every week. A compute picks up the release current at
 * the moment it starts, so an always-on compute keeps its old release until it is restarted.
 */

/** The release schedule: number `first` came out at `epochMs`, then one every `intervalMs`. */
export interface ReleaseSchedule {
  readonly epochMs: number;
  readonly first: number;
  readonly intervalMs: number;
}

/** The release version current at `t`, as the API shows it (`compute_release_version`). */
export function releaseAt(schedule: ReleaseSchedule, t: number): string {
  const index = Math.max(0, Math.floor((t - schedule.epochMs) / schedule.intervalMs));
  return String(schedule.first + index);
}
