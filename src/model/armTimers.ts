/**
 * The timers each event arms, given the state right after it. Called live and on replay alike, so a
 * replayed simulation holds the same agenda as the original.
 */
import type { Profile } from '../domain/profile.js';
import { suspendTimeoutMs } from '../domain/suspendTimeout.js';
import type { TimerRequest } from '../engine/decider.js';
import type { DomainEvent } from './events.js';
import type { SimState } from './state.js';
import type { TimerCommand } from './timers.js';

/** Timers armed by `event`. */
export function armTimers(
  event: DomainEvent,
  state: SimState,
  profile: Profile,
): readonly TimerRequest<TimerCommand>[] | undefined {
  switch (event.type) {
    case 'OperationCreated':
      if (event.status !== 'running') return undefined;
      return [completeAt(event.at + event.durationMs, event.projectId, event.operationId)];
    case 'OperationStarted': {
      const operation = state.projects[event.projectId]?.operations[event.operationId];
      return operation === undefined
        ? undefined
        : [completeAt(event.at + operation.durationMs, event.projectId, operation.id)];
    }
    case 'ComputeStateChanged': {
      const endpoint = state.projects[event.projectId]?.endpoints[event.endpointId];
      if (endpoint?.idleSince === undefined || endpoint.pendingState !== undefined)
        return undefined;
      const timeout = suspendTimeoutMs(endpoint.suspendTimeoutSeconds, profile);
      if (timeout === undefined) return undefined;
      return [
        {
          due: endpoint.idleSince + timeout,
          timer: {
            type: 'SuspendIdleCompute',
            projectId: endpoint.projectId,
            endpointId: endpoint.id,
            idleSince: endpoint.idleSince,
          },
        },
      ];
    }
    default:
      return undefined;
  }
}

function completeAt(
  due: number,
  projectId: string,
  operationId: string,
): TimerRequest<TimerCommand> {
  return { due, timer: { type: 'CompleteOperation', projectId, operationId } };
}
