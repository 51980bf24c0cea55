/**
 * RetryOperation (timer): a failed operation runs again, for a duration drawn anew from its own
 * latency range. Stale when the operation is no longer `failed` (cancelled in the meantime).
 */
import { ok } from '../../core/result.js';
import type { Handler, Pending } from '../decideContext.js';
import { drawDuration } from '../operationPlanner.js';
import type { RetryOperation } from '../timers.js';

/** Decides a retry. */
export const retryOperation: Handler<RetryOperation> = (state, command, context) => {
  const operation = state.projects[command.projectId]?.operations[command.operationId];
  if (operation === undefined || operation.status !== 'failed') return ok([]);
  const durationMs = drawDuration(context, operation.latency);
  return ok<Pending>([
    {
      type: 'OperationStarted',
      projectId: operation.projectId,
      operationId: operation.id,
      durationMs,
    },
  ]);
};
