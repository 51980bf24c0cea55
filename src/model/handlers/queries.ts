/**
 * What a client does on an open connection: a statement that runs for a while, and transactions.
 * While a statement runs or a transaction is open (even with no statement: idle in transaction) the
 * connection is active and keeps its compute awake; an idle connection does not (fidelity.md, audit
 * 2026-11-23). Refusals change nothing: an unknown connection (404), one not open or already running
 * a statement (409).
 */
import { err, ok } from '../../core/result.js';
import { reject } from '../../domain/rejection.js';
import type { RunQuery, SetTransaction } from '../commands.js';
import type { Handler, Pending } from '../decideContext.js';
import type { ConnectionState, SimState } from '../state.js';
import type { EndQuery } from '../timers.js';
import { entryOf } from '../workingMaps.js';
import type { Result } from '../../core/result.js';
import type { Rejection } from '../../domain/rejection.js';

/** Decides a statement on a connection. */
export const runQuery: Handler<RunQuery> = (state, command, context) => {
  const connection = openConnectionOf(state, command.connectionId);
  if (!connection.ok) return connection;
  const { id, projectId, endpointId, queryUntil } = connection.value;
  if (queryUntil !== undefined)
    return err(reject('conflict', `connection ${id} is already running a statement`));
  if (!Number.isSafeInteger(command.durationMs) || command.durationMs < 0)
    return err(reject('invalid_input', 'a statement lasts a whole number of milliseconds ≥ 0'));
  return ok<Pending>([
    {
      type: 'QueryStarted',
      connectionId: id,
      projectId: projectId as string,
      endpointId,
      until: context.now + command.durationMs,
    },
  ]);
};

/** Decides the end of a statement (stale when the connection ended or runs another one). */
export const endQuery: Handler<EndQuery> = (state, command) => {
  const connection = entryOf(state.connections, command.connectionId);
  if (connection?.status !== 'open' || connection.queryUntil !== command.until) return ok([]);
  return ok<Pending>([
    {
      type: 'QueryFinished',
      connectionId: connection.id,
      projectId: connection.projectId as string,
      endpointId: connection.endpointId,
    },
  ]);
};

/** Decides `BEGIN` / `COMMIT`: a transaction already in the asked state changes nothing (a warning in Postgres). */
export const setTransaction: Handler<SetTransaction> = (state, command) => {
  const connection = openConnectionOf(state, command.connectionId);
  if (!connection.ok) return connection;
  const { id, projectId, endpointId, inTransaction } = connection.value;
  if ((inTransaction === true) === command.open) return ok([]);
  return ok<Pending>([
    {
      type: 'TransactionChanged',
      connectionId: id,
      projectId: projectId as string,
      endpointId,
      open: command.open,
    },
  ]);
};

function openConnectionOf(
  state: SimState,
  connectionId: string,
): Result<ConnectionState, Rejection> {
  const connection = entryOf(state.connections, connectionId);
  if (connection === undefined)
    return err(reject('not_found', `connection ${connectionId} not found`));
  if (connection.status !== 'open')
    return err(reject('conflict', `connection ${connectionId} is ${connection.status}, not open`));
  return ok(connection);
}
