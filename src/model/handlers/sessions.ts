/**
 * EndSession (timer): a workload session is over and its client closes the connection. A session
 * whose biggest statement needs more temporary disk than the compute has fails at once (53100).
 * Stale once the connection has ended some other way (dropped, its compute deleted).
 */
import { ok } from '../../core/result.js';
import { SQL_STATES } from '../../domain/sqlState.js';
import type { Handler, Pending } from '../decideContext.js';
import type { EndSession } from '../timers.js';
import { outgrowsTempDisk } from '../sessionLoad.js';
import { closeConnection } from './connections.js';
import { entryOf } from '../workingMaps.js';

/** Decides the end of a session. */
export const endSession: Handler<EndSession> = (state, command, context) => {
  const connection = entryOf(state.connections, command.connectionId);
  if (connection?.status !== 'open' || connection.projectId === undefined) return ok([]);
  const events: Pending = [];
  if (outgrowsTempDisk(connection, context.profile.limits))
    events.push({
      type: 'StatementFailed',
      connectionId: connection.id,
      projectId: connection.projectId,
      endpointId: connection.endpointId,
      ...SQL_STATES.diskFull,
    });
  const closed = closeConnection(
    state,
    { type: 'CloseConnection', connectionId: connection.id },
    context,
  );
  if (closed.ok) events.push(...closed.value);
  return ok(events);
};
