/**
 * Scheduling the first availability check of a branch when it gets its first compute (later checks
 * are scheduled by each check; see handlers/checkAvailability.ts).
 */
import type { CommandDraft } from './commandDraft.js';

/** Schedules a branch's first check, unless it is already checked (or scheduled) or checks are off. */
export function firstCheck(draft: CommandDraft, projectId: string, branchId: string): void {
  const { intervalMs } = draft.context.profile.availabilityChecks;
  if (intervalMs === 0) return;
  if (draft.state.projects[projectId]?.branches[branchId]?.nextCheckAt !== undefined) return;
  if (draft.schedulesCheck(branchId)) return;
  draft.push({
    type: 'AvailabilityCheckScheduled',
    projectId,
    branchId,
    dueAt: draft.context.now + intervalMs,
    intervalMs,
  });
}
