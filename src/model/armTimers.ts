/**
 * The timers each event arms, given the state right after it. Called live and on replay alike, so a
 * replayed simulation holds the same agenda as the original.
 */
import { PRUNE_EVERY_MS } from './handlers/pruneOperations.js';
import type { Profile } from '../domain/profile.js';
import type { Arm } from '../engine/decider.js';
import type { DomainEvent } from './events.js';
import type { SimState } from './state.js';
import type { TimerCommand } from './timers.js';
import { armDetach } from './computeTimers.js';
import { DECLARED_TIMERS } from './declaredEvents.js';

type Timers = (
  event: DomainEvent,
  state: SimState,
  profile: Profile,
  arm: Arm<TimerCommand>,
) => void;

/** Arms the timers `event` sets. */
export function armTimers(
  event: DomainEvent,
  state: SimState,
  profile: Profile,
  arm: Arm<TimerCommand>,
): void {
  const declared = DECLARED_TIMERS[event.type as keyof typeof DECLARED_TIMERS];
  if (declared !== undefined) {
    if (declared !== 'none') (declared as Timers)(event, state, profile, arm);
    return;
  }
  switch (event.type) {
    case 'AvailabilityCheckScheduled':
      if (event.dueAt !== null) {
        const { projectId, branchId, dueAt } = event;
        arm(dueAt, { type: 'CheckAvailability', projectId, branchId, dueAt }, true);
      }
      return;
    case 'ProjectCreated':
      if (profile.operationRetentionMs > 0)
        arm(
          event.at + PRUNE_EVERY_MS,
          { type: 'PruneOperations', projectId: event.projectId },
          true,
        );
      return;
    case 'ProjectDeleted':
      if (event.recoverableUntil !== undefined) {
        const timer = { type: 'PurgeProject', projectId: event.projectId, deletedAt: event.at };
        arm(event.recoverableUntil, timer as TimerCommand, true);
      }
      return;
    case 'BranchDeleted':
      if (event.recoverableUntil !== undefined)
        armBranchPurge(event.projectId, event.branchId, event.at, event.recoverableUntil, arm);
      return;
    case 'ProjectRecovered': {
      const project = state.projects[event.projectId];
      if (project === undefined) return;
      if (profile.operationRetentionMs > 0) {
        const timer = {
          type: 'PruneOperations',
          projectId: event.projectId,
          recoveredAt: event.at,
        };
        arm(event.at + PRUNE_EVERY_MS, timer as TimerCommand, true);
      }
      // Its branches deleted before it keep their own windows (a timer that fired while the
      // project was away found nothing: arm again; a second firing finds nothing to purge).
      for (const [branchId, kept] of Object.entries(project.deletedBranches ?? {}))
        armBranchPurge(
          event.projectId,
          branchId,
          kept.deletedAt,
          Math.max(event.at, kept.recoverableUntil),
          arm,
        );
      armDetach(state, event.projectId, event.at, profile, arm);
      return;
    }

    default:
      return;
  }
}

/** Arms the end of a deleted branch's recovery window (background: nothing waits for it). */
function armBranchPurge(
  projectId: string,
  branchId: string,
  deletedAt: number,
  until: number,
  arm: Arm<TimerCommand>,
): void {
  arm(until, { type: 'PurgeBranch', projectId, branchId, deletedAt }, true);
}
