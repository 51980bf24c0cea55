/**
 * SuspendIdleCompute (timer): scale to zero. A compute active, unchanged, without connections and
 * without unfinished operations for its whole suspend timeout gets a `suspend_compute` (after suspends
 * that gave up, a longer wait: see `scaleToZeroDelayMs`). Stale when
 * anything happened since (the idle clock restarted, so a newer timer is armed).
 */
import { ok } from '../../core/result.js';
import type { LocksProfile } from '../../domain/profile.js';
import { scaleToZeroDelayMs, suspendTimeoutMs } from '../../domain/suspendTimeout.js';
import { CommandDraft } from '../commandDraft.js';
import type { Handler } from '../decideContext.js';
import { lockedBy } from '../lookups.js';
import { recordOperations, suspendPlan } from '../operationPlanner.js';
import type { SuspendIdleCompute } from '../timers.js';

/** The lock scale to zero respects: unfinished work on the compute itself, no cap. */
const COMPUTE_ONLY: LocksProfile = {
  scope: 'compute-and-branch',
  maxUnfinishedOperations: Number.POSITIVE_INFINITY,
};

/** Decides whether an idle compute is suspended now. */
export const suspendIdleCompute: Handler<SuspendIdleCompute> = (state, command, context) => {
  const project = state.projects[command.projectId];
  const endpoint = project?.endpoints[command.endpointId];
  if (project === undefined || endpoint === undefined || endpoint.idleSince !== command.idleSince)
    return ok([]);
  const timeout = suspendTimeoutMs(endpoint.suspendTimeoutSeconds, endpoint.maxCu, context.profile);
  if (timeout === undefined) return ok([]);
  if (context.now < endpoint.idleSince + scaleToZeroDelayMs(timeout, endpoint.failedSuspends))
    return ok([]);
  // Scale to zero is the control plane's own work: only work on this compute holds it back.
  if (lockedBy(project, { endpointId: endpoint.id }, COMPUTE_ONLY) !== undefined) return ok([]);
  const draft = new CommandDraft(state, context);
  recordOperations(draft, project.id, [suspendPlan(endpoint.branchId, endpoint.id)]);
  return ok(draft.events);
};
