/**
 * One Postgres client on the front, from its startup message to its last byte. Its start (TLS, the
 * compute it names, its password) is `handshake`'s; this file decides the rest as the real service
 * would: its database; then it opens a simulated connection (waking an idle compute, the client
 * waiting out the simulated start, then the real open of the branch database) and hands the
 * logged-in client to its engine's traffic: `EmbeddedTraffic` (turns on PGlite's shared backend)
 * or `ProxiedTraffic` (a backend of its own on a real Postgres). Either keeps the compute active
 * from the moment work arrives until the transaction it is in has ended (so wall time spent
 * serving it never passes as idle time, at any clock speed); the session ends the client with
 * the simulated connection's SQLSTATE when the control plane drops it.
 */
import type { Duplex } from 'node:stream';
import type { Subscription } from 'rxjs';
import { SQL_STATES, type SqlError } from '../domain/sqlState.js';
import type { ServedConnection } from '../service/servedSimulation.js';
import type { DatabaseRef, HeldDatabase } from './branchDatabases.js';
import type { NamedEndpoint } from './endpointRouting.js';
import type { FrontedSimulation, FrontHost } from './frontHost.js';
import { PG_ERRORS } from './pgErrors.js';
import { backendKeyData, type BackendKey } from './cancelKeys.js';
import {
  authenticationOk,
  errorResponse,
  parameterStatus,
  readyForQuery,
} from './backendMessages.js';
import type { ClientMessages } from './clientMessages.js';
import { hangUp } from './hangUp.js';
import type { BackendLink } from './backendLink.js';
import { ProxiedTraffic } from './proxiedTraffic.js';
import { EmbeddedTraffic } from './embeddedTraffic.js';
import { handshake, type HandshakeContext, type StartedClient } from './handshake.js';
import { SessionState } from './sessionState.js';
import { reported, startupSettings } from './startupSettings.js';

/** What a session needs from its front. */
export interface SessionContext {
  readonly host: FrontHost;
  hold(database: DatabaseRef): Promise<HeldDatabase>;
  /** A client has gone: its session on the branch database is let go. */
  leave(database: DatabaseRef, session: SessionState): void;
  /** Hands a notification to the session with process id `processId`. */
  notify(processId: number, message: Uint8Array): void;
  /** This session's key for cancel requests. */
  readonly key: BackendKey;
  /** The start of the client: TLS, the compute's password, cancel requests, the log. */
  readonly handshake: HandshakeContext;
  /** The client's login is over (it succeeded, or the connection ended before it did). */
  loginEnded(): void;
  /** Resolves at the next change of the served simulation (or a pacing tick). */
  changed(): Promise<void>;
  /** The session ended. */
  ended(session: ClientSession): void;
  /**
   * On a real Postgres (`--pg-engine postgres`): a backend of the client's own, logged in as
   * `role` with the startup `settings`, in place of a turn on a shared one (`hold`); or the
   * server's refusal.
   */
  link?(
    database: DatabaseRef & { readonly name: string },
    role: string,
    settings: Readonly<Record<string, string>>,
  ): Promise<BackendLink | SqlError>;
  /** The session goes by its backend's key from now on (cancel requests name that one). */
  rekey?(key: BackendKey): void;
}

/** Where an authenticated client is. */
interface Target extends DatabaseRef {
  readonly readOnly: boolean;
  /** The database's name, as the client gave it. */
  readonly name: string;
}

/**
 * The id of a database the control plane does not list, which a real Postgres has all the same
 * (`postgres`, `template1`, one made by `CREATE DATABASE`): a client of the real engine may name it.
 */
const UNLISTED_DATABASE = -1;

/** A client let in, with what to announce to it; or why it is not. */
type Admission =
  | { readonly parameters: Readonly<Record<string, string>>; readonly key?: BackendKey }
  | { readonly refusal: SqlError };

/** A client of the front. */
export class ClientSession {
  #socket: Duplex;
  readonly #context: SessionContext;
  #target: Target | undefined;
  /** The client's own session (settings, prepared statements, temporary tables) on the backend. */
  #session: SessionState | undefined;
  #connection: ServedConnection | undefined;
  #drops: Subscription | undefined;
  #ended = false;
  /** Whether the client has work under way (a statement, a transaction): its compute is active. */
  #working = false;
  /** The role the client logged in as. */
  #role = '';
  /** On PGlite: the client's messages run in turn on its database's shared backend. */
  #embedded: EmbeddedTraffic | undefined;
  /** On a real Postgres: the client's own backend, and the traffic passed to and from it. */
  #link: BackendLink | undefined;
  #proxied: ProxiedTraffic | undefined;

  constructor(socket: Duplex, context: SessionContext) {
    this.#socket = socket;
    this.#context = context;
    // Writes after the end (a client gone mid-reply) must not become uncaught errors.
    socket.on('error', () => undefined);
    this.#start().catch((error: unknown) => this.#failed(error));
  }

  /** Something the session did not expect: the client reads 08006 with the reason, and goes. */
  #failed(error: unknown): void {
    if (this.#ended) return;
    this.#fatal(PG_ERRORS.unavailable(error));
    void this.end();
  }

  /** The start: the handshake, then the compute, the database, and the client's messages. */
  async #start(): Promise<void> {
    const started = await handshake(this.#socket, this.#context.handshake).finally(() =>
      this.#context.loginEnded(),
    );
    if (started === undefined) {
      this.#ended = true;
      this.#context.ended(this);
      return;
    }
    this.#socket = started.socket;
    this.#socket.on('error', () => undefined);
    // The client hung up (its FIN, or the socket gone): nothing more is said to it.
    this.#socket.on('end', () => void this.end());
    this.#socket.on('close', () => void this.end());
    if (this.#socket.destroyed) {
      void this.end();
      return;
    }
    const session = new SessionState(
      this.#context.key.processId,
      startupSettings(started.parameters),
    );
    this.#session = session;
    const admission = await this.#authenticate(started);
    if (this.#ended) return;
    if ('refusal' in admission) {
      this.terminate(admission.refusal);
      return;
    }
    if (this.#link !== undefined) {
      this.#announce(admission.parameters, admission.key);
      this.#proxy(this.#link, started.messages, started.early);
    } else {
      this.#announce({ ...admission.parameters, ...reported(session.settings) });
      this.#serveEmbedded(session, started.messages, started.early);
    }
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
    this.#proxied?.close();
    this.#link?.close();
    const connection = this.#connection;
    if (connection !== undefined && isLive(connection.state)) {
      try {
        this.#context.host.act(() => connection.close());
      } catch {
        // The store refused the close: the connection ends with the process anyway.
      }
    }
    const target = this.#target;
    if (target !== undefined && this.#session !== undefined)
      this.#context.leave(target, this.#session);
    await this.#embedded?.close();
    hangUp(this.#socket);
    this.#context.ended(this);
  }

  /**
   * Cancels the statement running now, if one is (a CancelRequest naming this session): the
   * client reads 57014.
   */
  cancel(): void {
    if (this.#link !== undefined) this.#link.cancel();
    else this.#embedded?.cancel();
  }

  /** A notification for this client, from another's statement (on the embedded engine). */
  notify(message: Uint8Array): void {
    this.#embedded?.notify(message);
  }

  /**
   * Checks the database the client asked for, then connects it (waiting for the compute) and
   * opens its database; the parameters to announce, or a refusal.
   */
  async #authenticate(started: StartedClient): Promise<Admission> {
    const sim = this.#context.host.sim;
    const named = started.endpoint;
    const projectId = sim.state.endpointOwners[named.endpointId];
    const endpoint =
      projectId === undefined
        ? undefined
        : sim.state.projects[projectId]?.endpoints[named.endpointId];
    const branch =
      endpoint === undefined
        ? undefined
        : sim.state.projects[endpoint.projectId]?.branches[endpoint.branchId];
    if (endpoint === undefined || branch === undefined)
      return { refusal: SQL_STATES.endpointNotFound };
    const database = branch.databases.find((d) => d.name === started.database);
    if (database === undefined && this.#context.link === undefined)
      return { refusal: PG_ERRORS.unknownDatabase(started.database) };
    this.#role = started.user;
    this.#target = {
      projectId: branch.projectId,
      branchId: branch.id,
      databaseId: database?.id ?? UNLISTED_DATABASE,
      readOnly: endpoint.type === 'read_only',
      name: started.database,
    };
    return this.#connect(named);
  }

  async #connect(named: NamedEndpoint): Promise<Admission> {
    let connection: ServedConnection;
    try {
      connection = this.#context.host.act((sim) =>
        sim.connect(named.endpointId, { pooled: named.pooled }),
      );
    } catch (error) {
      return { refusal: PG_ERRORS.unavailable(error) };
    }
    this.#connection = connection;
    while (connection.state === 'connecting' && !this.#ended)
      if (this.#context.host.skipAhead?.() !== true) await this.#context.changed();
    if (this.#ended) return { parameters: {} };
    if (connection.state !== 'open')
      return {
        refusal: connection.error ?? PG_ERRORS.unavailable('the connection was not opened'),
      };
    this.#watchDrops(this.#context.host.sim, connection.id);
    return this.#openDatabase(connection);
  }

  /**
   * Opens the branch database before the client is told it is in (the compute has work meanwhile):
   * a cold start is felt as the simulated start plus the real open, a warm connect as neither.
   */
  async #openDatabase(connection: ServedConnection): Promise<Admission> {
    const target = this.#target;
    if (target === undefined) return { parameters: {} };
    const session = this.#session;
    if (session === undefined) return { parameters: {} };
    let began;
    try {
      began = this.#context.host.act(() => connection.begin());
    } catch (error) {
      return { refusal: PG_ERRORS.unavailable(error) };
    }
    if (!began.ok) return { refusal: began.error };
    try {
      if (this.#context.link !== undefined) return await this.#linkBackend(target, session);
      // The session goes on the backend now: a startup setting it refuses ends the connect.
      const held = await this.#context.hold(target);
      try {
        const refused = await held.enter(session);
        return refused === undefined ? { parameters: held.parameters } : { refusal: refused };
      } finally {
        await held.release();
      }
    } catch (error) {
      return { refusal: PG_ERRORS.unavailable(error) };
    } finally {
      try {
        if (!this.#ended && connection.state === 'open')
          this.#context.host.act(() => connection.commit());
      } catch {
        // The store refuses writes: the compute stays active a little longer, nothing worse.
      }
    }
  }

  /**
   * On a real Postgres: logs the client in on a backend of its own, with its startup settings (a
   * read replica's transactions read-only), and announces that backend's parameters and key.
   */
  async #linkBackend(target: Target, session: SessionState): Promise<Admission> {
    if (this.#context.link === undefined) return { parameters: {} };
    const settings: Record<string, string> = Object.fromEntries(session.settings);
    if (target.readOnly) settings['default_transaction_read_only'] = 'on';
    const linked = await this.#context.link(target, this.#role, settings);
    if (!('socket' in linked)) return { refusal: linked };
    if (this.#ended) {
      linked.close();
      return { parameters: {} };
    }
    this.#link = linked;
    this.#context.rekey?.(linked.key);
    return { parameters: linked.parameters, key: linked.key };
  }

  /** Passes the client's traffic to and from its own backend, the compute active while it works. */
  #proxy(link: BackendLink, messages: ClientMessages, early: readonly Uint8Array[]): void {
    const connection = this.#connection;
    if (connection === undefined) return;
    this.#proxied = new ProxiedTraffic(this.#socket, link, messages, early, {
      busy: () => this.#busy(connection),
      rest: () => this.#rest(connection),
      violated: (error) => {
        this.#context.handshake.log(`a client broke the protocol: ${error.message}`);
        this.terminate(error);
      },
      ended: () => void this.end(),
    });
    this.#socket.resume();
  }

  /** Serves the client's messages on its database's shared embedded backend. */
  #serveEmbedded(
    session: SessionState,
    messages: ClientMessages,
    early: readonly Uint8Array[],
  ): void {
    const target = this.#target;
    const connection = this.#connection;
    if (target === undefined || connection === undefined) return;
    this.#embedded = new EmbeddedTraffic(this.#socket, messages, early, {
      host: this.#context.host,
      target,
      session,
      processId: this.#context.key.processId,
      hold: (database) => this.#context.hold(database),
      notify: (processId, message) => this.#context.notify(processId, message),
      log: (line) => this.#context.handshake.log(line),
      busy: () => this.#busy(connection),
      rest: () => this.#rest(connection),
      terminate: (error) => this.terminate(error),
      failed: (error) => this.#failed(error),
      end: () => this.end(),
      ended: () => this.#ended,
    });
  }

  /** Work arrived while the client had none: its compute is active (false: it cannot be). */
  #busy(connection: ServedConnection): boolean {
    try {
      const began = this.#context.host.act(() => connection.begin());
      if (began.ok) {
        this.#working = true;
        return true;
      }
      this.terminate(began.error);
    } catch (error) {
      this.terminate(PG_ERRORS.unavailable(error));
    }
    return false;
  }

  #watchDrops(sim: FrontedSimulation, connectionId: string): void {
    this.#drops = sim.events$.subscribe((event) => {
      if (event.type === 'ConnectionsDropped' && event.connectionIds.includes(connectionId))
        this.terminate({ sqlstate: event.sqlstate, message: event.message });
    });
  }

  /**
   * What a server says once a client is in: authentication done, the parameters its engine
   * reports, the cancel key, ready.
   */
  #announce(parameters: Readonly<Record<string, string>>, key = this.#context.key): void {
    const said = [
      authenticationOk(),
      ...Object.entries(parameters).map(([name, value]) => parameterStatus(name, value)),
      backendKeyData(key),
      readyForQuery('I'),
    ];
    this.#socket.write(Buffer.concat(said));
  }

  /** The client's work is over for now: the compute's idle clock may run. */
  #rest(connection: ServedConnection): void {
    if (!this.#working) return;
    this.#working = false;
    try {
      if (connection.state === 'open') this.#context.host.act(() => connection.commit());
    } catch {
      // The store refuses writes for now: the client still gets its answer; the compute's idle
      // clock starts with its next statement's end instead.
    }
  }

  #fatal(error: SqlError): void {
    const socket = this.#socket;
    if (socket.destroyed || socket.writableEnded || socket.readableEnded) return;
    socket.write(
      errorResponse({ severity: 'FATAL', code: error.sqlstate, message: error.message }),
    );
  }
}

function isLive(state: string): boolean {
  return state === 'open' || state === 'connecting';
}
