/**
 * One Postgres client on the front, from its startup message to its last byte. The wire protocol is
 * pg-gateway's; this file decides what the real service would: which compute the client named, its
 * role's password, its database; then it opens a simulated connection (waking an idle compute, the
 * client waiting out the simulated start), runs the client's messages on the branch database's
 * embedded Postgres, keeps the compute active while a statement or transaction runs, and ends the
 * client with the simulated connection's SQLSTATE when the control plane drops it.
 */
import type { Socket } from 'node:net';
import { PostgresConnection } from 'pg-gateway';
import type { Subscription } from 'rxjs';
import { SQL_STATES, type SqlError } from '../domain/sqlState.js';
import type { ServedConnection } from '../service/servedSimulation.js';
import type { BranchRef, HeldDatabase } from './branchDatabases.js';
import { endpointFromOptions, splitPassword, type NamedEndpoint } from './endpointRouting.js';
import type { FrontedSimulation, FrontHost } from './frontHost.js';
import { lastTransactionStatus } from './transactionStatus.js';
import { PG_ERRORS } from './pgErrors.js';

/** What a session needs from its front. */
export interface SessionContext {
  readonly host: FrontHost;
  hold(branch: BranchRef, databaseName: string): Promise<HeldDatabase>;
  /** Resolves at the next change of the served simulation (or a pacing tick). */
  changed(): Promise<void>;
  /** A session begins or stops waiting for its compute (the front paces the clock meanwhile). */
  waiting(delta: 1 | -1): void;
  /** The session ended; it held `databaseKey` (if it got that far). */
  ended(session: ClientSession): void;
  /** The Postgres version the front announces. */
  readonly serverVersion: string;
}

/** Where an authenticated client is. */
interface Target extends BranchRef {
  readonly databaseName: string;
  readonly readOnly: boolean;
}

const PASSWORD_MESSAGE = 0x70; // 'p'
/** Parse, Bind, Describe, Execute, Close: messages whose replies may wait for a Sync or Flush. */
const DEFERRED: ReadonlySet<number> = new Set([0x50, 0x42, 0x44, 0x45, 0x43]);
const TERMINATE = 0x58; // 'X'

/** A client of the front. */
export class ClientSession {
  readonly #socket: Socket;
  readonly #context: SessionContext;
  readonly #gateway: PostgresConnection;
  #named: NamedEndpoint | undefined;
  #target: Target | undefined;
  #connection: ServedConnection | undefined;
  #held: HeldDatabase | undefined;
  #drops: Subscription | undefined;
  #ended = false;
  /** Extended-protocol messages waiting for their Sync or Flush. */
  #pending: Uint8Array[] = [];

  constructor(socket: Socket, context: SessionContext) {
    this.#socket = socket;
    this.#context = context;
    // Writes after the end (a client gone mid-reply) must not become uncaught errors.
    socket.on('error', () => undefined);
    // The client hung up (its FIN, or the socket gone): nothing more is said to it.
    socket.on('end', () => void this.end());
    socket.on('close', () => void this.end());
    this.#gateway = new PostgresConnection(socket, {
      serverVersion: context.serverVersion,
      auth: {
        method: 'password',
        // The password was checked when its message came in (see #authenticate).
        getClearTextPassword: () => '',
        validateCredentials: () => true,
      },
      onStartup: (state) => {
        this.#named = endpointFromOptions(state.clientInfo?.parameters['options']);
      },
      onAuthenticated: () => this.#announce(),
      onMessage: (data, state) =>
        state.isAuthenticated ? this.#forward(data) : this.#beforeAuthentication(data),
    });
  }

  /** The database this session works on, once authenticated. */
  get databaseKey(): (BranchRef & { readonly databaseName: string }) | undefined {
    return this.#target;
  }

  /** Ends the session with `error` (a FATAL the client reads), as the control plane drops it. */
  terminate(error: SqlError): void {
    if (this.#ended) return;
    this.#fatal(error);
    void this.end();
  }

  /** Ends the session: closes its simulated connection and gives its database back. */
  async end(): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    this.#drops?.unsubscribe();
    const connection = this.#connection;
    if (connection !== undefined && isLive(connection.state)) {
      try {
        this.#context.host.act(() => connection.close());
      } catch {
        // The store refused the close: the connection ends with the process anyway.
      }
    }
    const held = this.#held;
    this.#held = undefined;
    await held?.release({ rollback: true }).catch(() => undefined);
    if (!this.#socket.destroyed) this.#socket.end();
    this.#context.ended(this);
  }

  async #beforeAuthentication(data: Uint8Array): Promise<boolean> {
    if (isCancelRequest(data)) {
      // A running statement cannot be cut short in the embedded Postgres: like a server that finds
      // nothing to cancel, close the request's connection without a reply.
      this.#ended = true;
      this.#gateway.detach();
      this.#socket.end();
      this.#context.ended(this);
      return true;
    }
    if (data[0] !== PASSWORD_MESSAGE || this.#gateway.clientInfo === undefined) return false;
    const parameters = this.#gateway.clientInfo.parameters;
    const sent = readCString(data, 5);
    const { endpoint, password } = splitPassword(sent);
    const refusal = await this.#authenticate(
      this.#named ?? endpoint,
      parameters.user,
      parameters['database'] ?? parameters.user,
      password,
    );
    if (refusal === undefined) return false; // pg-gateway completes the authentication
    this.#fatal(refusal);
    void this.end();
    return true;
  }

  /** Checks what the client asked for, then connects it (waiting for the compute); a refusal or nothing. */
  async #authenticate(
    named: NamedEndpoint | undefined,
    user: string,
    databaseName: string,
    password: string,
  ): Promise<SqlError | undefined> {
    if (named === undefined) return PG_ERRORS.endpointNotSpecified;
    const sim = this.#context.host.sim;
    const projectId = sim.state.endpointOwners[named.endpointId];
    const endpoint =
      projectId === undefined
        ? undefined
        : sim.state.projects[projectId]?.endpoints[named.endpointId];
    const branch =
      endpoint === undefined
        ? undefined
        : sim.state.projects[endpoint.projectId]?.branches[endpoint.branchId];
    if (endpoint === undefined || branch === undefined) return SQL_STATES.endpointNotFound;
    const role = branch.roles.find((r) => r.name === user);
    if (role === undefined || role.password !== password) return PG_ERRORS.passwordFailed(user);
    if (!branch.databases.some((d) => d.name === databaseName))
      return PG_ERRORS.unknownDatabase(databaseName);
    this.#target = {
      projectId: branch.projectId,
      branchId: branch.id,
      databaseName,
      readOnly: endpoint.type === 'read_only',
    };
    return this.#connect(named);
  }

  async #connect(named: NamedEndpoint): Promise<SqlError | undefined> {
    let connection: ServedConnection;
    try {
      connection = this.#context.host.act((sim) =>
        sim.connect(named.endpointId, { pooled: named.pooled }),
      );
    } catch (error) {
      return PG_ERRORS.unavailable(error);
    }
    this.#connection = connection;
    this.#context.waiting(1);
    try {
      while (connection.state === 'connecting' && !this.#ended) await this.#context.changed();
    } finally {
      this.#context.waiting(-1);
    }
    if (this.#ended) return undefined;
    if (connection.state !== 'open')
      return connection.error ?? PG_ERRORS.unavailable('the connection was not opened');
    this.#watchDrops(this.#context.host.sim, connection.id);
    return undefined;
  }

  #watchDrops(sim: FrontedSimulation, connectionId: string): void {
    this.#drops = sim.events$.subscribe((event) => {
      if (event.type === 'ConnectionsDropped' && event.connectionIds.includes(connectionId))
        this.terminate({ sqlstate: event.sqlstate, message: event.message });
    });
  }

  /** What a real server says after authentication besides the version pg-gateway sends. */
  #announce(): void {
    for (const [name, value] of SESSION_PARAMETERS) this.#gateway.sendParameterStatus(name, value);
  }

  /** Runs a client message on the branch database, holding it until the transaction ends. */
  async #forward(data: Uint8Array): Promise<boolean> {
    if (data[0] === TERMINATE) {
      await this.end();
      return true;
    }
    const target = this.#target;
    const connection = this.#connection;
    if (target === undefined || connection === undefined || this.#ended) return true;
    // Parse, Bind, Describe, Execute and Close wait for the Sync (or Flush) that follows them, as a
    // backend may hold their replies: the embedded Postgres then runs the batch in one call.
    if (DEFERRED.has(data[0] as number)) {
      this.#pending.push(data);
      return true;
    }
    const message = this.#pending.length === 0 ? data : Buffer.concat([...this.#pending, data]);
    this.#pending = [];
    try {
      if (this.#held === undefined) {
        const held = await this.#context.hold(target, target.databaseName);
        if (this.#ended) {
          await held.release({ rollback: true });
          return true;
        }
        this.#held = held;
        await held.setReadOnly(target.readOnly);
        this.#context.host.act(() => connection.begin());
      }
      const reply = await this.#held.exec(message);
      if (this.#ended) return true;
      this.#gateway.sendData(reply);
      if (lastTransactionStatus(reply) === 'I') await this.#idle(connection);
    } catch (error) {
      this.#fatal(PG_ERRORS.unavailable(error));
      void this.end();
    }
    return true;
  }

  /** The transaction ended: the database goes to the next client, the compute's idle clock starts. */
  async #idle(connection: ServedConnection): Promise<void> {
    const held = this.#held;
    this.#held = undefined;
    await held?.release();
    if (connection.state === 'open') this.#context.host.act(() => connection.commit());
  }

  #fatal(error: SqlError): void {
    const socket = this.#socket;
    if (socket.destroyed || socket.writableEnded || socket.readableEnded) return;
    this.#gateway.sendError({ severity: 'FATAL', code: error.sqlstate, message: error.message });
  }
}

/** Parameters a Postgres server reports at connection start, which drivers read. */
const SESSION_PARAMETERS: ReadonlyArray<readonly [string, string]> = [
  ['server_encoding', 'UTF8'],
  ['client_encoding', 'UTF8'],
  ['DateStyle', 'ISO, MDY'],
  ['integer_datetimes', 'on'],
  ['standard_conforming_strings', 'on'],
  ['TimeZone', 'UTC'],
  ['IntervalStyle', 'postgres'],
  ['is_superuser', 'off'],
];

/** A CancelRequest: length 16, then the code 80877102, the backend's process id and secret key. */
function isCancelRequest(data: Uint8Array): boolean {
  if (data.length !== 16) return false;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return view.getInt32(0) === 16 && view.getInt32(4) === CANCEL_REQUEST_CODE;
}

const CANCEL_REQUEST_CODE = 80_877_102;

function isLive(state: string): boolean {
  return state === 'open' || state === 'connecting';
}

function readCString(data: Uint8Array, offset: number): string {
  const end = data.indexOf(0, offset);
  return Buffer.from(data.subarray(offset, end === -1 ? data.length : end)).toString('utf8');
}
