/**
 * PruneOperations (background timer, daily): ended operations older than the profile's retention are
 * dropped from state; the log keeps them. Always records the pruning, which schedules the next one.
 */
import { ok } from '../../core/result.js';
import type { Handler, Pending } from '../decideContext.js';
import type { PruneOperations } from '../timers.js';

/** How often pruning runs. */
export const PRUNE_EVERY_MS = 86_400_000;

/** Decides a pruning of one project's operations. */
export const pruneOperations: Handler<PruneOperations> = (state, command, context) => {
  const project = state.projects[command.projectId];
  // Gone, or recovered since this timer's chain began (the recovery started a new one).
  if (project === undefined || project.recoveredAt !== command.recoveredAt) return ok([]);
  return ok<Pending>([
    {
      type: 'OperationsPruned',
      projectId: command.projectId,
      before: context.now - context.profile.operationRetentionMs,
      nextAt: context.now + PRUNE_EVERY_MS,
    },
  ]);
};
