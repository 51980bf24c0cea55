/**
 * A project's compute usage at an instant: what its computes' stops, resizes and deletions counted
 * into `usedActiveMs` and `usedCuMs`, plus, for each compute still active, the time since its
 * `usageCountedTo` at its current size. The same figures as the metrics projection's active hours
 * and CU-hours of the log up to that instant.
 */
import type { ProjectState } from './state.js';

/** Active time and CU × active time, summed over a project's computes (deleted ones included). */
export interface Usage {
  /** ms */
  readonly activeMs: number;
  /** CU·ms */
  readonly cuMs: number;
}

/** The usage of `project` up to `at` (an instant at or after its last event). */
export function projectUsageAt(project: ProjectState, at: number): Usage {
  let activeMs = project.usedActiveMs ?? 0;
  let cuMs = project.usedCuMs ?? 0;
  for (const endpoint of Object.values(project.endpoints)) {
    if (endpoint.usageCountedTo === undefined) continue;
    const span = Math.max(0, at - endpoint.usageCountedTo);
    activeMs += span;
    cuMs += span * (endpoint.allocatedCu ?? endpoint.minCu);
  }
  return { activeMs, cuMs };
}
