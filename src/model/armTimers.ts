/**
 * The timers each event arms, given the state right after it. Called live and on replay alike, so a
 * replayed simulation holds the same agenda as the original.
 */
import type { Profile } from '../domain/profile.js';
import { suspendTimeoutMs } from '../domain/suspendTimeout.js';
import type { Arm } from '../engine/decider.js';
import type { DomainEvent } from './events.js';
import type { SimState } from './state.js';
import type { TimerCommand } from './timers.js';

/** Arms the timers `event` sets. */
export function armTimers(
  event: DomainEvent,
  state: SimState,
  profile: Profile,
  arm: Arm<TimerCommand>,
): void {
  switch (event.type) {
    case 'OperationCreated':
      if (event.status === 'running') {
        const { projectId, operationId } = event;
        arm(event.at + event.durationMs, { type: 'CompleteOperation', projectId, operationId });
      }
      return;
    case 'OperationStarted': {
      const operation = state.projects[event.projectId]?.operations[event.operationId];
      if (operation !== undefined) {
        const { projectId, id: operationId } = operation;
        arm(event.at + operation.durationMs, { type: 'CompleteOperation', projectId, operationId });
      }
      return;
    }
    case 'ComputeStateChanged': {
      const endpoint = state.projects[event.projectId]?.endpoints[event.endpointId];
      if (endpoint?.idleSince === undefined || endpoint.pendingState !== undefined) return;
      const timeout = suspendTimeoutMs(endpoint.suspendTimeoutSeconds, profile);
      if (timeout === undefined) return;
      const { projectId, id: endpointId, idleSince } = endpoint;
      arm(idleSince + timeout, { type: 'SuspendIdleCompute', projectId, endpointId, idleSince });
      return;
    }
    default:
      return;
  }
}
