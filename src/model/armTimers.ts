/**
 * The timers each event arms, given the state right after it. Called live and on replay alike, so a
 * replayed simulation holds the same agenda as the original.
 */
import type { Profile } from '../domain/profile.js';
import type { Arm } from '../engine/decider.js';
import type { DomainEvent } from './events.js';
import type { SimState } from './state.js';
import type { TimerCommand } from './timers.js';
import { armBranchPurge } from './computeTimers.js';
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
    case 'BranchDeleted':
      if (event.recoverableUntil !== undefined)
        armBranchPurge(event.projectId, event.branchId, event.at, event.recoverableUntil, arm);
      return;
    default:
      return;
  }
}
