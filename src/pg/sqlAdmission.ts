/**
 * A `POST /sql` request as a client of the compute its connection string names, for the length of
 * the request: its password checked as the proxy checks it, a simulated connection opened (waiting
 * out a cold start), then its database: a turn on the shared embedded Postgres, or a backend of
 * its own on a real one (`linkedDatabase`, in the shape the SQL-over-HTTP runner uses).
 */
import { SQL_STATES, type SqlError } from '../domain/sqlState.js';
import type { ServedConnection } from '../service/servedSimulation.js';
import type { BackendLink } from './backendLink.js';
import type { DatabaseRef, HeldDatabase } from './branchDatabases.js';
import type { NamedEndpoint } from './endpointRouting.js';
import type { FrontHost } from './frontHost.js';
import { PG_ERRORS } from './pgErrors.js';
import type { SessionState } from './sessionState.js';
import type { SqlClient } from './sqlOverHttp.js';

/** What admitting a `/sql` client needs of its front. */
export interface SqlAdmissionContext {
  readonly host: FrontHost;
  /** The password of `user` on the compute named, or `undefined` (no such role or compute). */
  passwordOf(named: NamedEndpoint, user: string): string | undefined;
  /** A request has become a client (a paced clock follows the wall); returns its leaving. */
  arrived(): () => void;
  /** Resolves at the next change of the served simulation (or a pacing tick). */
  changed(): Promise<void>;
  /** The client's database: held on the embedded engine, or a backend of its own. */
  database(
    place: DatabaseRef & { readonly name: string },
    user: string,
    session: SessionState,
    readOnly: boolean,
  ): Promise<HeldDatabase | SqlError>;
  /** The request is over: its session leaves the database. */
  leave(place: DatabaseRef, session: SessionState): void;
}

/**
 * Connects a `/sql` request as a client of `named` with `user`/`password` to `database` and gives
 * it its database with `session` on it; or the refusal.
 */
export async function admitSqlClient(
  context: SqlAdmissionContext,
  named: NamedEndpoint,
  user: string,
  password: string,
  database: string,
  session: SessionState,
): Promise<SqlClient | SqlError> {
  const expected = context.passwordOf(named, user);
  if (expected === undefined || expected !== password) return PG_ERRORS.passwordFailed(user);
  const state = context.host.sim.state;
  const projectId = state.endpointOwners[named.endpointId] as string;
  const endpoint = state.projects[projectId]?.endpoints[named.endpointId];
  const branch =
    endpoint === undefined ? undefined : state.projects[projectId]?.branches[endpoint.branchId];
  if (endpoint === undefined || branch === undefined) return SQL_STATES.endpointNotFound;
  const databaseId = branch.databases.find((d) => d.name === database)?.id;
  if (databaseId === undefined) return PG_ERRORS.unknownDatabase(database);
  let connection: ServedConnection;
  try {
    connection = context.host.act((sim) => sim.connect(named.endpointId, { pooled: named.pooled }));
  } catch (error) {
    return PG_ERRORS.unavailable(error);
  }
  const left = context.arrived();
  const finish = () => {
    try {
      if (connection.state === 'open' || connection.state === 'connecting')
        context.host.act(() => connection.close());
    } catch {
      // The store refused the close: the connection ends with the process anyway.
    }
    left();
  };
  while (connection.state === 'connecting')
    if (context.host.skipAhead?.() !== true) await context.changed();
  if (connection.state !== 'open') {
    finish();
    return connection.error ?? PG_ERRORS.unavailable('the connection was not opened');
  }
  const place = { projectId, branchId: branch.id, databaseId };
  try {
    context.host.act(() => connection.begin());
    const readOnly = endpoint.type === 'read_only';
    const held = await context.database({ ...place, name: database }, user, session, readOnly);
    if (!('exec' in held)) {
      finish();
      return held;
    }
    const refused = await held.enter(session);
    if (refused !== undefined) {
      await held.release();
      context.leave(place, session);
      finish();
      return refused;
    }
    await held.setReadOnly(readOnly);
    return {
      held,
      session,
      done: async () => {
        await held.release({ rollback: true }).catch(() => undefined);
        context.leave(place, session);
        try {
          if (connection.state === 'open') context.host.act(() => connection.commit());
        } catch {
          // The store refuses writes: the close below ends the connection's activity anyway.
        }
        finish();
      },
    };
  } catch (error) {
    finish();
    return PG_ERRORS.unavailable(error);
  }
}

/** A backend of a `/sql` client's own, in the shape the SQL-over-HTTP runner uses. */
export function linkedDatabase(link: BackendLink): HeldDatabase {
  const closed = () => {
    link.close();
    return Promise.resolve();
  };
  return {
    parameters: link.parameters,
    enter: () => Promise.resolve(undefined),
    exec: (message, write) => link.exec(message, write),
    reply: async (message) => {
      const chunks: Uint8Array[] = [];
      await link.exec(message, (chunk) => chunks.push(chunk));
      return Buffer.concat(chunks);
    },
    listenersOf: () => new Set(),
    listen: () => [],
    listenAgain: () => Promise.resolve(),
    setReadOnly: () => Promise.resolve(),
    release: closed,
    stop: closed,
  };
}
