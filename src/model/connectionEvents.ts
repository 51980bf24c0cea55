/**
 * Events about the connections of one compute: dropping the open ones (or all), opening or refusing
 * the ones that wait for it to start.
 */
import type { SqlError } from '../domain/sqlState.js';
import type { Pending } from './decideContext.js';
import type { ConnectionState, EndpointState, SimState } from './state.js';
import { entryOf, idsOf } from './workingMaps.js';
import { connectionsDropped } from './connectionDeclarations.js';

/** The live (connecting or open) connections of a compute. */
function liveConnections(state: SimState, endpointId: string): ConnectionState[] {
  return connectionsOf(state, endpointId, undefined);
}

/** Connections waiting for a compute to start. */
export function waitingConnections(state: SimState, endpointId: string): ConnectionState[] {
  return connectionsOf(state, endpointId, 'connecting');
}

/** A compute's live connections, only those in `status` if given: one loop, one array. */
function connectionsOf(
  state: SimState,
  endpointId: string,
  status: ConnectionState['status'] | undefined,
): ConnectionState[] {
  const found: ConnectionState[] = [];
  const live = entryOf(state.liveConnections, endpointId);
  if (live === undefined) return found;
  for (const id of idsOf(live)) {
    const connection = entryOf(state.connections, id);
    if (connection !== undefined && (status === undefined || connection.status === status))
      found.push(connection);
  }
  return found;
}

/**
 * The event terminating a compute's connections: the `open` ones when it suspends or restarts (those
 * waiting for it keep waiting and wake it again), or `all` when it goes away.
 */
export function dropConnections(
  state: SimState,
  projectId: string,
  endpointId: string,
  why: SqlError,
  which: 'open' | 'all',
): Pending {
  const connectionIds = liveConnections(state, endpointId)
    .filter((c) => which === 'all' || c.status === 'open')
    .map((c) => c.id);
  if (connectionIds.length === 0) return [];
  return [connectionsDropped(projectId, endpointId, connectionIds, why)];
}

/** Events opening every connection waiting for a compute that is now up. */
export function openWaiting(state: SimState, endpoint: EndpointState): Pending {
  return waitingConnections(state, endpoint.id).map((c) => ({
    type: 'ConnectionOpened' as const,
    connectionId: c.id,
    projectId: endpoint.projectId,
    branchId: endpoint.branchId,
    endpointId: endpoint.id,
    pooled: c.pooled,
    tracked: c.tracked,
  }));
}

/** Events refusing every connection waiting for a compute that will not come up. */
export function refuseWaiting(state: SimState, endpoint: EndpointState, why: SqlError): Pending {
  return waitingConnections(state, endpoint.id).map((c) => ({
    type: 'ConnectionRefused' as const,
    connectionId: c.id,
    projectId: endpoint.projectId,
    endpointId: endpoint.id,
    pooled: c.pooled,
    tracked: c.tracked,
    sqlstate: why.sqlstate,
    message: why.message,
  }));
}
