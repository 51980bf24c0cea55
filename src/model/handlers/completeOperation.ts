/**
 * CompleteOperation (timer): a running operation's attempt is over. With the action's fault profile
 * it may fail: `failed` and retried later, or, out of retries, `error` (its chain is cancelled, its
 * compute's pending state cleared and waiting connections refused). Otherwise it finishes, its effects
 * apply, and the operation waiting for it starts. Stale when the operation is no longer running.
 */
import { ok } from '../../core/result.js';
import { SQL_STATES } from '../../domain/sqlState.js';
import type { Handler, ModelContext, Pending } from '../decideContext.js';
import { effectEvents, waitingConnections } from '../operationPlanner.js';
import type { OperationState, ProjectState, SimState } from '../state.js';
import type { CompleteOperation } from '../timers.js';

/** Decides the end of a running operation's attempt. */
export const completeOperation: Handler<CompleteOperation> = (state, command, context) => {
  const project = state.projects[command.projectId];
  const operation = project?.operations[command.operationId];
  if (project === undefined || operation === undefined || operation.status !== 'running')
    return ok([]);
  const fault = context.profile.faults[operation.action];
  if (fault !== undefined && context.random('faults').chance(fault.failureRate)) {
    const error = `simulated failure of ${operation.action} (attempt ${operation.failuresCount + 1})`;
    if (operation.failuresCount < fault.maxRetries) {
      return ok<Pending>([
        {
          type: 'OperationFailed',
          projectId: project.id,
          operationId: operation.id,
          error,
          retryAt: context.now + fault.retryDelayMs,
        },
      ]);
    }
    return ok(giveUp(state, project, operation, error));
  }
  const events: Pending = [
    { type: 'OperationFinished', projectId: project.id, operationId: operation.id },
  ];
  events.push(...effectEvents(state, operation, operation.effects.finished, context));
  const next = operation.nextId === undefined ? undefined : project.operations[operation.nextId];
  if (next !== undefined && next.status === 'scheduling')
    events.push(...startNext(state, next, context, events));
  return ok(events);
};

/** Starts a `scheduling` operation whose predecessor finished (with the events decided so far). */
function startNext(
  state: SimState,
  next: OperationState,
  context: ModelContext,
  prior: Pending,
): Pending {
  return [
    {
      type: 'OperationStarted',
      projectId: next.projectId,
      operationId: next.id,
      durationMs: next.durationMs,
    },
    ...effectEvents(state, next, next.effects.running, context, prior),
  ];
}

/** The operation ends in `error`: its chain is cancelled and its compute left as it stands. */
function giveUp(
  state: SimState,
  project: ProjectState,
  operation: OperationState,
  error: string,
): Pending {
  const events: Pending = [
    { type: 'OperationErrored', projectId: project.id, operationId: operation.id, error },
  ];
  for (let id = operation.nextId; id !== undefined; id = project.operations[id]?.nextId) {
    events.push({ type: 'OperationCancelled', projectId: project.id, operationId: id });
  }
  const endpoint =
    operation.endpointId === undefined ? undefined : project.endpoints[operation.endpointId];
  if (endpoint === undefined) return events;
  if (endpoint.pendingState !== undefined) {
    events.push({
      type: 'ComputeStateChanged',
      projectId: project.id,
      endpointId: endpoint.id,
      currentState: endpoint.currentState,
      pendingState: null,
    });
  }
  const waiting = waitingConnections(state, endpoint.id);
  if (endpoint.currentState !== 'active') {
    for (const connection of waiting) {
      events.push({
        type: 'ConnectionRefused',
        connectionId: connection.id,
        projectId: project.id,
        endpointId: endpoint.id,
        pooled: connection.pooled,
        tracked: connection.tracked,
        ...SQL_STATES.startFailed,
      });
    }
  }
  return events;
}
