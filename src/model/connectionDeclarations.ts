/**
 * What the connection events mean (see eventDeclaration.ts): a connection requested while its
 * compute starts, opened, refused, closed or dropped, its statements and transactions; for each,
 * how it changes the state (the connection, its compute's counts, load and idle clock, its
 * project's last use), what it changes, the timers it arms, and its narration.
 */
import type { Draft } from 'immer';
import { coldCachePenaltyMs } from '../domain/coldCache.js';
import type { Profile } from '../domain/profile.js';
import type { Arm } from '../engine/decider.js';
import { clearField } from './clearField.js';
import { armAutoscale, armDetach, armSuspend } from './computeTimers.js';
import { refreshIdleSince } from './computeUsage.js';
import type { Declarations } from './eventDeclaration.js';
import type { ConnectionsDropped, SessionDemand } from './events.js';
import type { Unstamped } from '../engine/loggedEvent.js';
import { addDemand, applyLoad, outgrowsTempDisk } from './sessionLoad.js';
import type { ConnectionState, SimState } from './state.js';
import { endpointOf, projectOf } from './stateAccess.js';
import type { TimerCommand } from './timers.js';
import { branch, connection as connectionPaths } from './touchPaths.js';
import { countOf, deleteEntry, emptyLike, entryOf, setEntry } from './workingMaps.js';

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
    apply(draft, e) {
      addLive(draft, e, 'connecting');
    },
    touches: (e, touch) => connectionPaths(touch, e),
    timers: 'none',
    narrate: (e) =>
      `connection ${e.connectionId} to ${e.endpointId} waits for the compute to start`,
  },

  ConnectionOpened: {
    apply(draft, e) {
      const existing = entryOf(draft.connections, e.connectionId);
      if (existing === undefined) addLive(draft, e, 'open');
      else existing.status = 'open';
      const connection = entryOf(draft.connections, e.connectionId);
      const endpoint = endpointOf(draft, e.projectId, e.endpointId);
      if (connection !== undefined) {
        connection.openedAt = e.at;
        applyLoad(endpoint, connection, 1, e.at);
        if (isActive(connection)) endpoint.activeConnections++;
      }
      endpoint.lastActive = e.at;
      refreshIdleSince(endpoint, e.at, true);
      const project = projectOf(draft, e.projectId);
      project.lastUsedAt = e.at;
      const branch = project.branches[e.branchId];
      if (branch !== undefined) branch.usedSinceCheck = true;
    },
    touches(e, touch) {
      connectionPaths(touch, e);
      branch(touch, e.projectId, e.branchId);
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
    apply(draft, e) {
      const existing = entryOf(draft.connections, e.connectionId);
      const error = { sqlstate: e.sqlstate, message: e.message };
      if (existing !== undefined && e.projectId !== undefined) {
        end(draft, existing, e.projectId, 'refused', e.at, error);
        return;
      }
      if (!e.tracked) return;
      setEntry(draft.connections, e.connectionId, {
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
    touches: (e, touch) => connectionPaths(touch, e),
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
    apply(draft, e) {
      const connection = entryOf(draft.connections, e.connectionId);
      if (connection !== undefined) end(draft, connection, e.projectId, 'closed', e.at);
    },
    touches: (e, touch) => connectionPaths(touch, e),
    timers: armAfterLeaving,
    narrate: (e) => `connection ${e.connectionId} closed`,
  },

  ConnectionsDropped: {
    apply(draft, e) {
      const error = { sqlstate: e.sqlstate, message: e.message };
      for (const id of e.connectionIds) {
        const connection = entryOf(draft.connections, id);
        if (connection !== undefined) end(draft, connection, e.projectId, 'dropped', e.at, error);
      }
    },
    touches(e, touch) {
      for (const connectionId of e.connectionIds)
        connectionPaths(touch, { connectionId, endpointId: e.endpointId, projectId: e.projectId });
    },
    timers: armAfterLeaving,
    narrate: (e) =>
      `${e.connectionIds.length} connection(s) to ${e.endpointId} dropped: ${e.sqlstate} ${e.message}`,
  },

  StatementFailed: {
    apply() {
      // A fact for reports; the session ends with its own ConnectionClosed.
    },
    touches: () => undefined,
    timers: 'none',
    narrate: (e) =>
      `a statement on connection ${e.connectionId} failed: ${e.sqlstate} ${e.message}`,
  },

  QueryStarted: {
    apply(draft, e) {
      changeActivity(draft, e, (connection) => {
        connection.queryUntil = e.until;
      });
    },
    touches: (e, touch) => connectionPaths(touch, e),
    timers(e, _state, _profile, arm) {
      arm(e.until, { type: 'EndQuery', connectionId: e.connectionId, until: e.until });
    },
    narrate: (e) => `connection ${e.connectionId} runs a statement for ${e.until - e.at} ms`,
  },

  QueryFinished: {
    apply(draft, e) {
      changeActivity(draft, e, (connection) => {
        clearField(connection, 'queryUntil');
      });
    },
    touches: (e, touch) => connectionPaths(touch, e),
    timers(e, state, profile, arm) {
      armSuspend(state, e.projectId, e.endpointId, e.at, profile, arm);
    },
    narrate: (e) => `connection ${e.connectionId} is idle again`,
  },

  TransactionChanged: {
    apply(draft, e) {
      changeActivity(draft, e, (connection) => {
        if (e.open) connection.inTransaction = true;
        else clearField(connection, 'inTransaction');
      });
    },
    touches: (e, touch) => connectionPaths(touch, e),
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
  draft: Draft<SimState>,
  e: { connectionId: string; projectId: string; endpointId: string; at: number },
  change: (connection: Draft<ConnectionState>) => void,
): void {
  const connection = entryOf(draft.connections, e.connectionId);
  if (connection === undefined) return;
  const endpoint = endpointOf(draft, e.projectId, e.endpointId);
  const was = isActive(connection);
  change(connection);
  const now = isActive(connection);
  if (was !== now) endpoint.activeConnections += now ? 1 : -1;
  endpoint.lastActive = e.at;
  projectOf(draft, e.projectId).lastUsedAt = e.at;
  refreshIdleSince(endpoint, e.at, was && !now);
}

function addLive(
  draft: Draft<SimState>,
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
  setEntry(draft.connections, e.connectionId, connection);
  let live = entryOf(draft.liveConnections, e.endpointId);
  if (live === undefined)
    setEntry(draft.liveConnections, e.endpointId, (live = emptyLike(draft.liveConnections)));
  setEntry(live, e.connectionId, true);
  const endpoint = endpointOf(draft, e.projectId, e.endpointId);
  if (e.pooled) endpoint.pooledConnections++;
  else endpoint.directConnections++;
  refreshIdleSince(endpoint, e.at);
}

function end(
  draft: Draft<SimState>,
  connection: Draft<ConnectionState>,
  projectId: string,
  status: 'closed' | 'refused' | 'dropped',
  at: number,
  error?: { sqlstate: string; message: string },
): void {
  const live = entryOf(draft.liveConnections, connection.endpointId);
  if (live !== undefined) {
    // The last one out drops its compute's collection whole: emptying a `Map` reallocates it.
    if (countOf(live) === 1) deleteEntry(draft.liveConnections, connection.endpointId);
    else deleteEntry(live, connection.id);
  }
  const project = draft.projects[projectId];
  if (project !== undefined) project.lastUsedAt = at;
  const endpoint = project?.endpoints[connection.endpointId];
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
    deleteEntry(draft.connections, connection.id);
    return;
  }
  connection.status = status;
  connection.endedAt = at;
  if (error !== undefined) connection.error = error;
}
