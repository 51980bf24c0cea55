/**
 * Monitor: no connection is open on a compute that is not running.
 */
import { ComputeStates } from './computeStates.js';
import type { Monitor } from './monitor.js';

/**
 * Fires when a connection opens on a compute that is not steadily active (idle, starting or
 * suspending), or a compute goes idle while connections are still open on it.
 */
export function noConnectionOnIdleCompute(): Monitor {
  const states = new ComputeStates();
  const openOn = new Map<string, Set<string>>();
  const openSet = (endpointId: string) => {
    let set = openOn.get(endpointId);
    if (set === undefined) openOn.set(endpointId, (set = new Set()));
    return set;
  };
  return {
    name: 'noConnectionOnIdleCompute',
    observe(event) {
      states.follow(event);
      switch (event.type) {
        case 'ConnectionOpened': {
          openSet(event.endpointId).add(event.connectionId);
          if (!states.isSteadilyActive(event.endpointId))
            return `connection ${event.connectionId} opened on compute ${event.endpointId} while ${states.describe(event.endpointId)}`;
          return undefined;
        }
        case 'ConnectionClosed':
          openOn.get(event.endpointId)?.delete(event.connectionId);
          return undefined;
        case 'ConnectionsDropped':
          for (const id of event.connectionIds) openOn.get(event.endpointId)?.delete(id);
          return undefined;
        case 'ComputeStateChanged': {
          const open = openOn.get(event.endpointId)?.size ?? 0;
          if (event.currentState !== 'active' && open > 0)
            return `compute ${event.endpointId} became ${event.currentState} with ${open} connection(s) open`;
          return undefined;
        }
        case 'EndpointDeleted':
          openOn.delete(event.endpointId);
          return undefined;
        default:
          return undefined;
      }
    },
  };
}
