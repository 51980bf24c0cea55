/**
 * EndSession (timer): a workload session is over and its client closes the connection. A session
 * whose biggest statement needs more temporary disk than the compute has fails at once (53100).
 * Stale once the connection has ended some other way (dropped, its compute deleted).
 */
import { own } from '../../core/own.js';
import { ok } from '../../core/result.js';
import { SQL_STATES } from '../../domain/sqlState.js';
import type { Handler, Pending } from '../decideContext.js';
import type { EndSession } from '../timers.js';

/** Decides the end of a session. */
export const endSession: Handler<EndSession> = (state, command, context) => {
  const connection = own(state.connections, command.connectionId);
  if (connection?.status !== 'open' || connection.projectId === undefined) return ok([]);
  const where = {
    connectionId: connection.id,
    projectId: connection.projectId,
    endpointId: connection.endpointId,
  };
  const events: Pending = [];
  if ((connection.tempDiskGb ?? 0) > context.profile.limits.tempDiskGb)
    events.push({ type: 'StatementFailed', ...where, ...SQL_STATES.diskFull });
  events.push({ type: 'ConnectionClosed', ...where });
  return ok(events);
};
