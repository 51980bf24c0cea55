/**
 * What the connection events mean (see eventDeclaration.ts): a connection requested while its
 * compute starts, opened, refused, closed or dropped, its statements and transactions; for each,
 * how it changes the state (the connection, its compute's counts, load and idle clock, its
 * project's last use), the timers it arms, and its narration.
 */
import { coldCachePenaltyMs } from '../domain/coldCache.js';
import type { Profile } from '../domain/profile.js';
import type { Arm } from '../engine/decider.js';
import { clearField } from './clearField.js';
import { armAutoscale, armDetach, armSuspend } from './computeTimers.js';
import { refreshIdleSince } from './computeUsage.js';
import { seconds } from './narrationWords.js';
import type { Declarations } from './eventDeclaration.js';
import type { ConnectionsDropped, SessionDemand } from './connectionEventTypes.js';
import type { Unstamped } from '../engine/loggedEvent.js';
import { addDemand, applyLoad, outgrowsTempDisk } from './sessionLoad.js';
import type { ConnectionState, SimState } from './state.js';
import type { StateWriter } from './stateWriter.js';
import type { TimerCommand } from './timers.js';
import { entryOf } from './workingMaps.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Connections of a compute dropped, as decided (the engine stamps it): `connectionIds` cut with
 * `why`, in the log's field order.
 */
export function connectionsDropped(
  projectId: string,
  endpointId: string,
  connectionIds: readonly string[],
  why: { readonly sqlstate: string; readonly message: string },
): Unstamped<ConnectionsDropped> {
  return {
    type: 'ConnectionsDropped',
    projectId,
    endpointId,
    connectionIds,
    sqlstate: why.sqlstate,
    message: why.message,
  };
}

/** The connection events' declarations. */
export const CONNECTION_EVENTS: Declarations<
  | 'ConnectionRequested'
  | 'ConnectionOpened'
  | 'ConnectionRefused'
  | 'ConnectionClosed'
  | 'ConnectionsDropped'
  | 'StatementFailed'
  | 'QueryStarted'
  | 'QueryFinished'
  | 'TransactionChanged'
> = {
  ConnectionRequested: {
    apply(write, e) {
      addLive(write, e, 'connecting');
    },
    timers: 'none',
    narrate: (e) =>
      `connection ${e.connectionId} to ${e.endpointId} waits for the compute to start`,
  },

  ConnectionOpened: {
    apply(write, e) {
      const existing = write.rootEntry('connections', e.connectionId);
      if (existing === undefined) addLive(write, e, 'open');
      else existing.status = 'open';
      const connection = write.rootEntry('connections', e.connectionId);
      const endpoint = write.entry(e.projectId, 'endpoints', e.endpointId);
      if (connection !== undefined) {
        connection.openedAt = e.at;
        applyLoad(endpoint, connection, 1, e.at);
        if (isActive(connection)) endpoint.activeConnections++;
      }
      endpoint.lastActive = e.at;
      refreshIdleSince(endpoint, e.at, true);
      write.project(e.projectId).lastUsedAt = e.at;
      const branch = write.entryIfAny(e.projectId, 'branches', e.branchId);
      if (branch !== undefined) branch.usedSinceCheck = true;
    },
    timers(e, state, profile, arm) {
      armSessionEnd(state, e.connectionId, e.at, profile, arm);
      armAutoscale(state, e.projectId, e.endpointId, e.at, profile, arm);
      armSuspend(state, e.projectId, e.endpointId, e.at, profile, arm);
    },
    narrate: (e) =>
      `connection ${e.connectionId} to ${e.endpointId} open${e.pooled ? ' (pooled)' : ''}`,
  },

  ConnectionRefused: {
    apply(write, e) {
      const existing = write.rootEntry('connections', e.connectionId);
      const error = { sqlstate: e.sqlstate, message: e.message };
      if (existing !== undefined && e.projectId !== undefined) {
        end(write, existing, e.projectId, 'refused', e.at, error);
        return;
      }
      if (!e.tracked) return;
      write.putRoot('connections', e.connectionId, {
        id: e.connectionId,
        endpointId: e.endpointId,
        ...(e.projectId === undefined ? {} : { projectId: e.projectId }),
        pooled: e.pooled,
        status: 'refused',
        requestedAt: e.at,
        endedAt: e.at,
        error,
        tracked: true,
      });
    },
    timers(e, state, profile, arm) {
      if (e.projectId === undefined) return;
      armSuspend(state, e.projectId, e.endpointId, e.at, profile, arm);
      // A refused connection counts as a use: the detach check starts again from it.
      armDetach(state, e.projectId, e.at, profile, arm);
    },
    narrate: (e) =>
      `connection ${e.connectionId} to ${e.endpointId} refused: ${e.sqlstate} ${e.message}`,
  },

  ConnectionClosed: {
    apply(write, e) {
      const connection = write.rootEntry('connections', e.connectionId);
      if (connection !== undefined) end(write, connection, e.projectId, 'closed', e.at);
    },
    timers: armAfterLeaving,
    narrate: (e) => `connection ${e.connectionId} closed`,
  },

  ConnectionsDropped: {
    apply(write, e) {
      const error = { sqlstate: e.sqlstate, message: e.message };
      for (const id of e.connectionIds) {
        const connection = write.rootEntry('connections', id);
        if (connection !== undefined) end(write, connection, e.projectId, 'dropped', e.at, error);
      }
    },
    timers: armAfterLeaving,
    narrate: (e) =>
      `${e.connectionIds.length} connection(s) to ${e.endpointId} dropped: ${e.sqlstate} ${e.message}`,
  },

  StatementFailed: {
    apply() {
      // A fact for reports; the session ends with its own ConnectionClosed.
    },
    timers: 'none',
    narrate: (e) =>
      `a statement on connection ${e.connectionId} failed: ${e.sqlstate} ${e.message}`,
  },

  QueryStarted: {
    apply(write, e) {
      changeActivity(write, e, (connection) => {
        connection.queryUntil = e.until;
      });
    },
    timers(e, _state, _profile, arm) {
      arm(e.until, { type: 'EndQuery', connectionId: e.connectionId, until: e.until });
    },
    narrate: (e) => `connection ${e.connectionId} runs a statement for ${seconds(e.until - e.at)}`,
  },

  QueryFinished: {
    apply(write, e) {
      changeActivity(write, e, (connection) => {
        clearField(connection, 'queryUntil');
      });
    },
    timers(e, state, profile, arm) {
      armSuspend(state, e.projectId, e.endpointId, e.at, profile, arm);
    },
    narrate: (e) => `connection ${e.connectionId} is idle again`,
  },

  TransactionChanged: {
    apply(write, e) {
      changeActivity(write, e, (connection) => {
        if (e.open) connection.inTransaction = true;
        else clearField(connection, 'inTransaction');
      });
    },
    timers(e, state, profile, arm) {
      armSuspend(state, e.projectId, e.endpointId, e.at, profile, arm);
    },
    narrate: (e) => `connection ${e.connectionId} ${e.open ? 'began' : 'ended'} a transaction`,
  },
};

/** The checks a compute re-arms when connections leave it: autoscaling, then scale to zero. */
function armAfterLeaving(
  e: { readonly projectId: string; readonly endpointId: string; readonly at: number },
  state: SimState,
  profile: Profile,
  arm: Arm<TimerCommand>,
): void {
  armAutoscale(state, e.projectId, e.endpointId, e.at, profile, arm);
  armSuspend(state, e.projectId, e.endpointId, e.at, profile, arm);
}

/**
 * Arms the end of a workload session that just opened: after its hold time, plus the cold-cache
 * penalty when the compute started moments ago; at once when a statement of it cannot fit on disk.
 */
function armSessionEnd(
  state: SimState,
  connectionId: string,
  now: number,
  profile: Profile,
  arm: Arm<TimerCommand>,
): void {
  const connection = entryOf(state.connections, connectionId);
  if (connection?.holdMs === undefined) return;
  const timer = { type: 'EndSession', connectionId } as const;
  if (outgrowsTempDisk(connection, profile.limits)) {
    arm(now, timer);
    return;
  }
  const startedAt =
    state.projects[connection.projectId ?? '']?.endpoints[connection.endpointId]?.startedAt;
  arm(now + connection.holdMs + coldCachePenaltyMs(startedAt, now, profile.coldCache), timer);
}

/** Whether an open connection keeps its compute awake: a workload session, a statement, a transaction. */
function isActive(connection: ConnectionState): boolean {
  return (
    connection.status === 'open' &&
    (connection.holdMs !== undefined ||
      connection.queryUntil !== undefined ||
      connection.inTransaction === true)
  );
}

/**
 * Applies `change` to an open connection and keeps its compute's count of active connections and
 * idle clock in step (work ending now restarts the clock).
 */
function changeActivity(
  write: StateWriter,
  e: { connectionId: string; projectId: string; endpointId: string; at: number },
  change: (connection: Mutable<ConnectionState>) => void,
): void {
  const connection = write.rootEntry('connections', e.connectionId);
  if (connection === undefined) return;
  const endpoint = write.entry(e.projectId, 'endpoints', e.endpointId);
  const was = isActive(connection);
  change(connection);
  const now = isActive(connection);
  if (was !== now) endpoint.activeConnections += now ? 1 : -1;
  endpoint.lastActive = e.at;
  write.project(e.projectId).lastUsedAt = e.at;
  refreshIdleSince(endpoint, e.at, was && !now);
}

function addLive(
  write: StateWriter,
  e: SessionDemand & {
    connectionId: string;
    projectId: string;
    endpointId: string;
    pooled: boolean;
    tracked: boolean;
    at: number;
  },
  status: 'connecting' | 'open',
): void {
  const connection: Mutable<ConnectionState> = {
    id: e.connectionId,
    endpointId: e.endpointId,
    projectId: e.projectId,
    pooled: e.pooled,
    status,
    requestedAt: e.at,
    tracked: e.tracked,
  };
  addDemand(connection, e);
  write.putRoot('connections', e.connectionId, connection);
  write.addLive(e.endpointId, e.connectionId);
  const endpoint = write.entry(e.projectId, 'endpoints', e.endpointId);
  if (e.pooled) endpoint.pooledConnections++;
  else endpoint.directConnections++;
  refreshIdleSince(endpoint, e.at);
}

function end(
  write: StateWriter,
  connection: Mutable<ConnectionState>,
  projectId: string,
  status: 'closed' | 'refused' | 'dropped',
  at: number,
  error?: { sqlstate: string; message: string },
): void {
  write.removeLive(connection.endpointId, connection.id);
  if (write.state.projects[projectId] !== undefined) write.project(projectId).lastUsedAt = at;
  const endpoint = write.entryIfAny(projectId, 'endpoints', connection.endpointId);
  const wasActive = isActive(connection);
  if (endpoint !== undefined) {
    if (connection.status === 'open') applyLoad(endpoint, connection, -1, at);
    if (connection.pooled) endpoint.pooledConnections--;
    else endpoint.directConnections--;
    if (wasActive) endpoint.activeConnections--;
    endpoint.lastActive = at;
    refreshIdleSince(endpoint, at, wasActive);
  }
  clearField(connection, 'queryUntil');
  clearField(connection, 'inTransaction');
  if (!connection.tracked) {
    write.removeRoot('connections', connection.id);
    return;
  }
  connection.status = status;
  connection.endedAt = at;
  if (error !== undefined) connection.error = error;
}
