/**
 * One Postgres client on the front, from its startup message to its last byte. The wire protocol is
 * pg-gateway's; this file decides what the real service would: which compute the client named, its
 * role's password, its database; then it opens a simulated connection (waking an idle compute, the
 * client waiting out the simulated start, then the real open of the branch database), runs the
 * client's messages on that database's embedded Postgres with the reply streamed back as it comes,
 * keeps the compute active from the moment a statement arrives until the transaction it is in has
 * ended (so wall time spent serving it never passes as idle time, at any clock speed), and ends the
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
import { ReplyFrames } from './replyFrames.js';
import { PG_ERRORS } from './pgErrors.js';
import { backendKeyData, cancelTarget, type BackendKey } from './cancelKeys.js';

/** What a session needs from its front. */
export interface SessionContext {
  readonly host: FrontHost;
  hold(branch: BranchRef, databaseName: string): Promise<HeldDatabase>;
  /** Opens a branch database (if it is not open) without holding it. */
  open(branch: BranchRef, databaseName: string): Promise<void>;
  /** This session's key for cancel requests. */
  readonly key: BackendKey;
  /** A CancelRequest arrived for the session with `key`. */
  cancel(key: BackendKey): void;
  /** Resolves at the next change of the served simulation (or a pacing tick). */
  changed(): Promise<void>;
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
  /** Whether the client has work under way (a statement, a transaction): its compute is active. */
  #working = false;
  /** Whether a statement runs on the held database now. */
  #executing = false;
  /** Whether the running statement was cancelled (its instance stopped). */
  #cancelled = false;
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
    // A statement still running for a client that has gone is stopped, not waited for.
    if (this.#executing) await held?.stop().catch(() => undefined);
    else await held?.release({ rollback: true }).catch(() => undefined);
    if (!this.#socket.destroyed) this.#socket.end();
    this.#context.ended(this);
  }

  /**
   * Cancels the statement running now, if one is: its instance is stopped (an embedded Postgres
   * cannot be interrupted otherwise), so the client reads 57014 and its transaction is gone.
   */
  cancel(): void {
    if (!this.#executing || this.#ended) return;
    this.#cancelled = true;
    void this.#held?.stop();
  }

  async #beforeAuthentication(data: Uint8Array): Promise<boolean> {
    const cancel = cancelTarget(data);
    if (cancel !== undefined) {
      // As a server does: the statement of the session with that key (if any) is cancelled, and the
      // request's own connection is closed without a reply.
      this.#context.cancel(cancel);
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
    while (connection.state === 'connecting' && !this.#ended) await this.#context.changed();
    if (this.#ended) return undefined;
    if (connection.state !== 'open')
      return connection.error ?? PG_ERRORS.unavailable('the connection was not opened');
    this.#watchDrops(this.#context.host.sim, connection.id);
    return this.#openDatabase(connection);
  }

  /**
   * Opens the branch database before the client is told it is in (the compute has work meanwhile):
   * a cold start is felt as the simulated start plus the real open, a warm connect as neither.
   */
  async #openDatabase(connection: ServedConnection): Promise<SqlError | undefined> {
    const target = this.#target;
    if (target === undefined) return undefined;
    const began = this.#context.host.act(() => connection.begin());
    if (!began.ok) return began.error;
    try {
      await this.#context.open(target, target.databaseName);
    } catch (error) {
      return PG_ERRORS.unavailable(error);
    } finally {
      if (!this.#ended && connection.state === 'open')
        this.#context.host.act(() => connection.commit());
    }
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
    this.#gateway.sendData(backendKeyData(this.#context.key));
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
        // From the statement's arrival, the compute has work: waiting for the database is not idle.
        const began = this.#context.host.act(() => connection.begin());
        if (!began.ok) {
          this.terminate(began.error);
          return true;
        }
        this.#working = true;
        const held = await this.#context.hold(target, target.databaseName);
        if (this.#ended) {
          await held.release({ rollback: true });
          return true;
        }
        this.#held = held;
        await held.setReadOnly(target.readOnly);
      }
      const frames = new ReplyFrames();
      this.#executing = true;
      try {
        await this.#held.exec(message, (chunk) => {
          const messages = frames.take(chunk);
          // The compute's work ends as the client is told its transaction is over, not after: the
          // client may act on the answer (move the clock, say) before the backend has finished.
          if (frames.status === 'I') this.#rest(connection);
          return this.#send(messages);
        });
      } finally {
        this.#executing = false;
      }
      if (this.#ended) return true;
      if (frames.status === 'I') await this.#releaseDatabase();
    } catch (error) {
      if (this.#cancelled && !this.#ended) this.#afterCancel(connection);
      else {
        this.#fatal(PG_ERRORS.unavailable(error));
        void this.end();
      }
    }
    return true;
  }

  /** Writes whole messages to the client; resolves once they are out (or the client is gone). */
  #send(messages: Uint8Array): Promise<void> | undefined {
    const socket = this.#socket;
    if (messages.length === 0 || this.#ended || socket.destroyed || socket.writableEnded)
      return undefined;
    return new Promise((resolve) => socket.write(messages, () => resolve()));
  }

  /** A cancelled statement: the client reads 57014, and its transaction is gone with the instance. */
  #afterCancel(connection: ServedConnection): void {
    this.#cancelled = false;
    this.#held = undefined;
    this.#rest(connection);
    this.#gateway.sendError({
      severity: 'ERROR',
      code: PG_ERRORS.cancelled.sqlstate,
      message: PG_ERRORS.cancelled.message,
    });
    this.#gateway.sendReadyForQuery('idle');
  }

  /** The transaction ended: the database goes to the next client. */
  async #releaseDatabase(): Promise<void> {
    const held = this.#held;
    this.#held = undefined;
    await held?.release();
  }

  /** The client's work is over for now: the compute's idle clock may run. */
  #rest(connection: ServedConnection): void {
    if (!this.#working) return;
    this.#working = false;
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

function isLive(state: string): boolean {
  return state === 'open' || state === 'connecting';
}

function readCString(data: Uint8Array, offset: number): string {
  const end = data.indexOf(0, offset);
  return Buffer.from(data.subarray(offset, end === -1 ? data.length : end)).toString('utf8');
}
