/**
 * Narration: one plain-English sentence per event, for demos, teaching and `replay`. A narrator
 * remembers what earlier events said (an operation's action) so later lines can name it.
 */
import type { OperationAction } from '../domain/operationAction.js';
import type { SimEvent } from '../model/events.js';

/** Describes events in order (`undefined` for bookkeeping events with nothing to tell); one per log. */
export type Narrator = (event: SimEvent) => string | undefined;

/** A fresh narrator. */
export function createNarrator(): Narrator {
  const actions = new Map<string, OperationAction>();
  const operation = (id: string) => `operation ${actions.get(id) ?? id.slice(0, 8)}`;
  return (event) => {
    switch (event.type) {
      case 'SimulationStarted':
        return `simulation started (seed ${event.seed})`;
      case 'ClockAdvanced':
        return undefined;
      case 'ProjectCreated':
        return `project ${event.projectId} "${event.name}" created in ${event.regionId}`;
      case 'BranchCreated':
        return `branch ${event.branchId} "${event.name}"${event.isDefault ? ' (default)' : ''} created`;
      case 'EndpointCreated': {
        const size =
          event.minCu === event.maxCu ? `${event.minCu} CU` : `${event.minCu}-${event.maxCu} CU`;
        return `compute ${event.endpointId} (${event.endpointType}, ${size}) created: init, pending active`;
      }
      case 'OperationCreated': {
        actions.set(event.operationId, event.action);
        const on = event.endpointId === undefined ? '' : ` on ${event.endpointId}`;
        const waits = event.status === 'scheduling' ? ', waits for the one before' : '';
        return `operation ${event.action}${on}: ${event.status} (will take ${seconds(event.durationMs)}${waits})`;
      }
      case 'OperationStarted':
        return `${operation(event.operationId)}: running`;
      case 'OperationFinished':
        return `${operation(event.operationId)}: finished`;
      case 'ComputeStateChanged':
        return `compute ${event.endpointId} is ${event.currentState}${event.pendingState === null ? '' : `, pending ${event.pendingState}`}`;
    }
  };
}

/** `396 ms` below a second, `3.9 s` above. */
function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
