/**
 * CompleteOperation (timer): a running operation's attempt is over. With the action's fault profile
 * it may fail: `failed` and retried later, or, out of retries, `error` (see operationChains.ts)
 * unless its faults never end in error.
 * Otherwise it finishes, its effects apply, and the next operation of its chain starts. Stale when
 * the operation is no longer running.
 */
import { ok } from '../../core/result.js';
import { faultFor } from '../../domain/profile.js';
import { CommandDraft } from '../commandDraft.js';
import type { Handler, Pending } from '../decideContext.js';
import { giveUp, startFollowers } from '../operationChains.js';
import { carryOut } from '../operationPlanner.js';
import type { CompleteOperation } from '../timers.js';

/** Decides the end of a running operation's attempt. */
export const completeOperation: Handler<CompleteOperation> = (state, command, context) => {
  const project = state.projects[command.projectId];
  const operation = project?.operations[command.operationId];
  if (project === undefined || operation === undefined || operation.status !== 'running')
    return ok([]);
  const fault = faultFor(context.profile, operation.action, operation.latency);
  const fails =
    fault !== undefined &&
    context.random(`faults:${operation.action}:failure`).chance(fault.failureRate);
  const outOfRetries = fault !== undefined && operation.failuresCount >= fault.maxRetries;
  // An operation whose faults never end in error finishes once it is out of retries.
  if (fault !== undefined && fails && !(outOfRetries && fault.endsInError === false)) {
    const error = `simulated failure of ${operation.action} (attempt ${operation.failuresCount + 1})`;
    if (!outOfRetries) {
      const retryAt = context.now + fault.retryDelayMs;
      return ok<Pending>([
        {
          type: 'OperationFailed',
          projectId: project.id,
          operationId: operation.id,
          error,
          retryAt,
        },
      ]);
    }
    const draft = new CommandDraft(state, context);
    giveUp(draft, project, operation, error);
    return ok(draft.events);
  }
  const draft = new CommandDraft(state, context);
  draft.push({ type: 'OperationFinished', projectId: project.id, operationId: operation.id });
  carryOut(draft, operation, operation.effects.finished);
  startFollowers(draft, project, operation);
  return ok(draft.events);
};
