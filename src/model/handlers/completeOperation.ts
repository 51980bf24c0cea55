/**
 * CompleteOperation (timer): a running operation's time is up. It finishes, applies its effect to its
 * compute, and the operation waiting for it starts. Stale when the operation is no longer running.
 */
import { ok } from '../../core/result.js';
import type { Unstamped } from '../../engine/loggedEvent.js';
import type { Handler } from '../decideContext.js';
import type { DomainEvent } from '../events.js';
import { phaseEffect } from '../operationPlanner.js';
import type { CompleteOperation } from '../timers.js';

/** Decides the end of a running operation. */
export const completeOperation: Handler<CompleteOperation> = (state, command) => {
  const project = state.projects[command.projectId];
  const operation = project?.operations[command.operationId];
  if (project === undefined || operation === undefined || operation.status !== 'running')
    return ok([]);
  const events: Unstamped<DomainEvent>[] = [
    { type: 'OperationFinished', projectId: project.id, operationId: operation.id },
  ];
  const finished = phaseEffect(project.endpoints, operation, 'onFinished');
  if (finished !== undefined) events.push(finished);
  const next = operation.nextId === undefined ? undefined : project.operations[operation.nextId];
  if (next !== undefined && next.status === 'scheduling') {
    events.push({ type: 'OperationStarted', projectId: project.id, operationId: next.id });
    const running = phaseEffect(project.endpoints, next, 'onRunning');
    if (running !== undefined) events.push(running);
  }
  return ok(events);
};
