/**
 * CheckAvailability (background timer): the periodic check that a branch's data is available and a
 * compute can start on it. It records `check_availability`; on an idle compute a `start_compute`
 * follows (the check starts it; scale to zero suspends it again later), and a disabled compute is
 * suspended again right after. The next check is scheduled further out while the branch gets no
 * connections, back to the first interval when it does. Branches without a compute are not checked;
 * a detached project is not checked (checks do not reattach storage).
 */
import { isDown } from '../../domain/computeState.js';
import { ok } from '../../core/result.js';
import { CommandDraft } from '../commandDraft.js';
import type { Handler, Pending } from '../decideContext.js';
import {
  hasUnfinished,
  recordOperations,
  startPlan,
  suspendPlan,
  type PlannedOperation,
} from '../operationPlanner.js';
import type { CheckAvailability } from '../timers.js';

/** Decides an availability check. */
export const checkAvailability: Handler<CheckAvailability> = (state, command, context) => {
  const project = state.projects[command.projectId];
  const branch = project?.branches[command.branchId];
  if (project === undefined || branch === undefined || branch.nextCheckAt !== command.dueAt)
    return ok([]);
  const computes = Object.values(project.endpoints).filter((e) => e.branchId === branch.id);
  const subject = computes.find((e) => e.type === 'read_write') ?? computes[0];
  const settings = context.profile.availabilityChecks;
  if (subject === undefined || settings.intervalMs === 0) {
    return ok<Pending>([
      {
        type: 'AvailabilityCheckScheduled',
        projectId: project.id,
        branchId: branch.id,
        dueAt: null,
        intervalMs: settings.intervalMs,
      },
    ]);
  }
  const previous = branch.checkIntervalMs ?? settings.intervalMs;
  const intervalMs = branch.usedSinceCheck
    ? settings.intervalMs
    : Math.min(settings.maxIntervalMs, Math.round(previous * settings.backoff));
  const draft = new CommandDraft(state, context);
  draft.push({
    type: 'AvailabilityCheckScheduled',
    projectId: project.id,
    branchId: branch.id,
    dueAt: context.now + intervalMs,
    intervalMs,
  });
  if (project.detached || hasUnfinished(project, 'detachesStorage')) return ok(draft.events);
  const plan: PlannedOperation[] = [
    {
      action: 'check_availability',
      branchId: branch.id,
      endpointId: subject.id,
      latency: 'check_availability',
    },
  ];
  if (
    isDown(subject.currentState, subject.pendingState) &&
    !hasUnfinished(project, 'startsCompute', subject.id)
  ) {
    plan.push(startPlan(branch.id, subject.id, 'wake_compute'));
    if (subject.disabled) plan.push(suspendPlan(branch.id, subject.id));
  }
  recordOperations(draft, project.id, plan);
  return ok(draft.events);
};
