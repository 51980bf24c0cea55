/**
 * Client connections. A connection to an active compute opens at once; to an idle one it waits while
 * a `start_compute` wakes it; to a compute already starting or suspending it waits for that. Refusals
 * are events too (they count in reports): an unknown or deleted compute (08001), a disabled one
 * (08004, and it is not woken), past the client share of max_connections (the profile's connection
 * rules) or the pooler's limit (53300).
 */
import { own } from '../../core/own.js';
import { err, ok } from '../../core/result.js';
import { connectionLimits } from '../../domain/computeSize.js';
import { reject } from '../../domain/rejection.js';
import { SQL_STATES, type SqlError } from '../../domain/sqlState.js';
import type { CloseConnection, OpenConnection } from '../commands.js';
import { CommandDraft } from '../commandDraft.js';
import type { Handler, Pending } from '../decideContext.js';
import { isDown } from '../../domain/computeState.js';
import { hasUnfinished, recordOperations, startPlan } from '../operationPlanner.js';
import { entryOf } from '../workingMaps.js';

/** Decides a connection attempt. */
export const openConnection: Handler<OpenConnection> = (state, command, context) => {
  const connectionId = `c-${context.nextSeq}`;
  const { endpointId, pooled, tracked } = command;
  const projectId = own(state.endpointOwners, endpointId);
  const endpoint =
    projectId === undefined
      ? undefined
      : own(own(state.projects, projectId)?.endpoints ?? {}, endpointId);
  if (projectId === undefined || endpoint === undefined)
    return refuse(command, connectionId, projectId, SQL_STATES.endpointNotFound);
  if (endpoint.disabled)
    return refuse(command, connectionId, projectId, SQL_STATES.endpointDisabled);
  const full = pooled
    ? endpoint.pooledConnections >= context.profile.limits.pooledConnections
    : endpoint.directConnections >=
      connectionLimits(endpoint.minCu, endpoint.maxCu, context.profile.connections)
        .clientConnections;
  if (full) return refuse(command, connectionId, projectId, SQL_STATES.tooManyConnections);

  const connection = { connectionId, projectId, endpointId, pooled, tracked, ...command.session };
  if (endpoint.currentState === 'active' && endpoint.pendingState === undefined) {
    return ok<Pending>([{ type: 'ConnectionOpened', ...connection, branchId: endpoint.branchId }]);
  }
  const draft = new CommandDraft(state, context);
  draft.push({ type: 'ConnectionRequested', ...connection });
  const project = state.projects[projectId];
  const starting = project !== undefined && hasUnfinished(project, 'startsCompute', endpoint.id);
  if (isDown(endpoint.currentState, endpoint.pendingState) && !starting) {
    const wake = startPlan(endpoint.branchId, endpoint.id, 'wake_compute');
    recordOperations(draft, projectId, [wake]);
  }
  return ok(draft.events);
};

/** The event refusing a connection attempt, and why. */
function refuse(
  { endpointId, pooled, tracked }: OpenConnection,
  connectionId: string,
  projectId: string | undefined,
  why: SqlError,
) {
  return ok<Pending>([
    {
      type: 'ConnectionRefused',
      connectionId,
      ...(projectId === undefined ? {} : { projectId }),
      endpointId,
      pooled,
      tracked,
      sqlstate: why.sqlstate,
      message: why.message,
    },
  ]);
}

/** Decides a client closing its connection (closing an ended one changes nothing). */
export const closeConnection: Handler<CloseConnection> = (state, command) => {
  const connection = entryOf(state.connections, command.connectionId);
  if (connection === undefined)
    return err(reject('not_found', `connection ${command.connectionId} not found`));
  if (connection.status !== 'open' && connection.status !== 'connecting') return ok([]);
  const projectId = connection.projectId as string;
  return ok<Pending>([
    {
      type: 'ConnectionClosed',
      connectionId: connection.id,
      projectId,
      endpointId: connection.endpointId,
    },
  ]);
};
