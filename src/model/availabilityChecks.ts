/**
 * Scheduling the first availability check of a branch when it gets its first compute (later checks
 * are scheduled by each check; see handlers/checkAvailability.ts).
 */
import type { ModelContext, Pending } from './decideContext.js';
import type { SimState } from './state.js';

/** The event scheduling a branch's first check, unless it is already checked or checks are off. */
export function firstCheck(
  state: SimState,
  projectId: string,
  branchId: string,
  context: ModelContext,
  decided: Pending,
): Pending {
  const { intervalMs } = context.profile.availabilityChecks;
  if (intervalMs === 0) return [];
  if (state.projects[projectId]?.branches[branchId]?.nextCheckAt !== undefined) return [];
  if (decided.some((e) => e.type === 'AvailabilityCheckScheduled' && e.branchId === branchId))
    return [];
  return [
    {
      type: 'AvailabilityCheckScheduled',
      projectId,
      branchId,
      dueAt: context.now + intervalMs,
      intervalMs,
    },
  ];
}
