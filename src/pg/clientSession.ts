/**
 * One Postgres client on the front, from its startup message to its last byte. Its start (TLS, the
 * compute it names, its password) is `handshake`'s; this file decides the rest as the real service
 * would: its database; then it opens a simulated connection (waking an idle compute, the
 * client waiting out the simulated start, then the real open of the branch database), runs the
 * client's messages on that database's embedded Postgres with the reply streamed back as it comes,
 * keeps the compute active from the moment a statement arrives until the transaction it is in has
 * ended (so wall time spent serving it never passes as idle time, at any clock speed), and ends the
 * client with the simulated connection's SQLSTATE when the control plane drops it.
 */
import type { Duplex } from 'node:stream';
import type { Subscription } from 'rxjs';
import { SQL_STATES, type SqlError } from '../domain/sqlState.js';
import type { ServedConnection } from '../service/servedSimulation.js';
import type { DatabaseRef, HeldDatabase } from './branchDatabases.js';
import type { NamedEndpoint } from './endpointRouting.js';
import type { FrontedSimulation, FrontHost } from './frontHost.js';
import { lastTransactionStatus, ReplyFrames, type TransactionStatus } from './replyFrames.js';
import { refusalInMessages, type Refusal } from './refusedStatements.js';
import {
  copyInResponse,
  CopyInProgress,
  copyProbe,
  isCopyFromStdin,
  MAX_COPY_BYTES,
  withoutCopyIn,
} from './copyIn.js';
import { PG_ERRORS } from './pgErrors.js';
import { backendKeyData, type BackendKey } from './cancelKeys.js';
import {
  authenticationOk,
  backendMessage,
  errorResponse,
  parameterStatus,
  queryMessage,
  readyForQuery,
} from './backendMessages.js';
import { isLoggedInMessageType, MESSAGE_LIMITS, type ClientMessages } from './clientMessages.js';
import { awaitsReady } from './clientBatch.js';
import { hangUp } from './hangUp.js';
import type { BackendLink } from './backendLink.js';
import { ProxiedTraffic } from './proxiedTraffic.js';
import { handshake, type HandshakeContext, type StartedClient } from './handshake.js';
import { listenChanges, routeNotifications } from './notifications.js';
import { maySetTimeout, statementTimeoutOf } from './statementTimeout.js';
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

/** Parse, Bind, Describe, Execute, Close: messages whose replies may wait for a Sync or Flush. */
const DEFERRED: ReadonlySet<number> = new Set([0x50, 0x42, 0x44, 0x45, 0x43]);
const TERMINATE = 0x58; // 'X'
/** The end sent in place of the client's when its COPY data went past the bound. */
const COPY_TOO_LARGE = backendMessage(
  'f',
  Buffer.from(`more than ${MAX_COPY_BYTES >> 20} MiB of COPY data for one statement\0`, 'utf8'),
);

const SYNC = 0x53; // 'S'
const FLUSH = 0x48; // 'H'
/** What the backend runs in place of a refused statement: it fails, as the statement would. */
const FAILING_STATEMENT =
  "DO $$ BEGIN RAISE EXCEPTION USING ERRCODE = '42501', MESSAGE = 'refused by computesim'; END $$";

function fatalMessage(error: SqlError): Buffer {
  return errorResponse({ severity: 'FATAL', code: error.sqlstate, message: error.message });
}

/** Whether `error` (an ErrorResponse) is the failing statement's own. */
function isFailing(error: Uint8Array): boolean {
  return Buffer.from(error).includes('refused by computesim');
}

/**
 * Extended-protocol messages a client may send ahead of a Sync or Flush: the front holds them
 * until then (the embedded Postgres runs a batch in one call).
 */
const MAX_PENDING_BYTES = MESSAGE_LIMITS.large;
const PENDING_TOO_LARGE: SqlError = {
  sqlstate: '54000',
  message: `more than ${MAX_PENDING_BYTES >> 20} MiB of extended-protocol messages sent without a Sync or Flush`,
};

/** Bytes of notifications (and replies) a client may leave unread before it is let go. */
const MAX_UNREAD_NOTIFICATION_BYTES = 16 * 1024 * 1024;
const NOT_READING: SqlError = {
  sqlstate: '53200',
  message: `terminating connection: more than ${MAX_UNREAD_NOTIFICATION_BYTES >> 20} MiB of notifications unread`,
};

function invalidType(type: number): SqlError {
  return { sqlstate: '08P01', message: `invalid frontend message type ${type}` };
}

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
  #held: HeldDatabase | undefined;
  #drops: Subscription | undefined;
  #ended = false;
  /** Whether the client has work under way (a statement, a transaction): its compute is active. */
  #working = false;
  /** Whether a statement runs on the held database now. */
  #executing = false;
  /** Why the running statement was cancelled (its instance stopped), if it was. */
  #cancelled: SqlError | undefined;
  /** The transaction status the backend last reported to this client. */
  #status: TransactionStatus = 'I';
  /** A COPY FROM STDIN gathering the client's data. */
  #copy: CopyInProgress | undefined;
  /** After a refused batch ended by a Flush: the status the Sync to come is answered with. */
  #skipUntilSync: TransactionStatus | undefined;
  /** Extended-protocol messages waiting for their Sync or Flush, and their bytes. */
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  /** The backend answered FATAL or PANIC: it is stopped, and this client ends with that answer. */
  #backendFailed = false;
  /** The role the client logged in as. */
  #role = '';
  /** On a real Postgres: the client's own backend, and the traffic passed to and from it. */
  #link: BackendLink | undefined;
  #traffic: ProxiedTraffic | undefined;

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
      this.#read(started.messages, started.early);
    }
  }

  /** Reads the client's messages one at a time, the socket paused while one is served. */
  #read(messages: ClientMessages, early: readonly Uint8Array[]): void {
    const queue = [...early];
    let serving = false;
    const serve = async () => {
      if (serving) return;
      serving = true;
      this.#socket.pause();
      try {
        for (let next = queue.shift(); next !== undefined && !this.#ended; next = queue.shift())
          await this.#forward(next);
      } finally {
        serving = false;
        if (!this.#ended) this.#socket.resume();
      }
    };
    this.#socket.on('data', (chunk: Buffer) => {
      const read = messages.read(chunk);
      queue.push(...read.messages);
      if (read.violation !== undefined) {
        this.#context.handshake.log(`a client broke the protocol: ${read.violation.message}`);
        this.terminate(read.violation);
        return;
      }
      serve().catch((error: unknown) => this.#failed(error));
    });
    serve().catch((error: unknown) => this.#failed(error));
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
    this.#pending = [];
    this.#copy = undefined;
    this.#drops?.unsubscribe();
    this.#traffic?.close();
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
    const held = this.#held;
    this.#held = undefined;
    // A statement still running for a client that has gone is stopped, not waited for.
    if (this.#executing) await held?.stop().catch(() => undefined);
    else await held?.release({ rollback: true }).catch(() => undefined);
    hangUp(this.#socket);
    this.#context.ended(this);
  }

  /**
   * Cancels the statement running now, if one is: its instance is stopped (an embedded Postgres
   * cannot be interrupted otherwise), so the client reads 57014 and its transaction is gone.
   */
  cancel(why: SqlError = PG_ERRORS.cancelled): void {
    if (this.#link !== undefined) return this.#link.cancel();
    if (!this.#executing || this.#ended) return;
    this.#cancelled = why;
    void this.#held?.stop();
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
    this.#traffic = new ProxiedTraffic(this.#socket, link, messages, early, {
      busy: () => {
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
      },
      rest: () => this.#rest(connection),
      violated: (error) => {
        this.#context.handshake.log(`a client broke the protocol: ${error.message}`);
        this.terminate(error);
      },
      ended: () => void this.end(),
    });
    this.#socket.resume();
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

  /** Runs a client message on the branch database, holding it until the transaction ends. */
  async #forward(data: Uint8Array): Promise<void> {
    if (data[0] === TERMINATE) {
      await this.end();
      return;
    }
    const target = this.#target;
    const connection = this.#connection;
    if (target === undefined || connection === undefined || this.#ended) return;
    if (!isLoggedInMessageType(data[0] as number)) {
      // A password message sent behind the first one, read before the client was in.
      this.#context.handshake.log(`a client broke the protocol: message type ${data[0]}`);
      this.terminate(invalidType(data[0] as number));
      return;
    }
    if (this.#skipUntilSync !== undefined) {
      // After an error in a batch the backend drops what comes until the Sync, then says ready.
      if (data[0] === SYNC) {
        await this.#send(readyForQuery(this.#skipUntilSync));
        this.#skipUntilSync = undefined;
      }
      return;
    }
    // Parse, Bind, Describe, Execute and Close wait for the Sync (or Flush) that follows them, as a
    // backend may hold their replies: the embedded Postgres then runs the batch in one call.
    if (DEFERRED.has(data[0] as number)) {
      this.#pending.push(data);
      this.#pendingBytes += data.length;
      if (this.#pendingBytes > MAX_PENDING_BYTES) this.terminate(PENDING_TOO_LARGE);
      return;
    }
    const message = this.#pending.length === 0 ? data : Buffer.concat([...this.#pending, data]);
    this.#pending = [];
    this.#pendingBytes = 0;
    const copy = this.#copy;
    let run = message;
    if (copy !== undefined) {
      if (CopyInProgress.isData(message)) copy.add(message);
      // Flush and Sync mean nothing during COPY, as for Postgres; its end runs the whole exchange.
      if (!CopyInProgress.ends(message)) return;
      this.#copy = undefined;
      run = copy.exchange(copy.overflowed ? COPY_TOO_LARGE : message);
    }
    try {
      if (this.#held === undefined) {
        // From the statement's arrival, the compute has work: waiting for the database is not idle.
        const began = this.#context.host.act(() => connection.begin());
        if (!began.ok) {
          this.terminate(began.error);
          return;
        }
        this.#working = true;
        const held = await this.#context.hold(target);
        if (this.#ended) {
          await held.release({ rollback: true });
          return;
        }
        this.#held = held;
        if (this.#session !== undefined) await held.enter(this.#session);
        await held.setReadOnly(target.readOnly);
      }
      const refusal = copy === undefined ? refusalInMessages(message) : undefined;
      if (refusal !== undefined) {
        await this.#refuse(connection, refusal, data[0] === FLUSH);
        return;
      }
      if (copy === undefined && isCopyFromStdin(message)) {
        const probed = await this.#probeCopy(this.#held, message);
        if (probed !== undefined) {
          await this.#execute(connection, undefined, probed);
          return;
        }
        if (this.#ended || this.#copy !== undefined) return;
      }
      await this.#execute(connection, run, undefined, copy !== undefined);
    } catch (error) {
      if (this.#backendFailed) return;
      if (this.#cancelled !== undefined && !this.#ended) this.#afterCancel(connection);
      else {
        this.#fatal(PG_ERRORS.unavailable(error));
        void this.end();
      }
    }
  }

  /**
   * Runs `message` on the held database with the reply streamed to the client (or passes on a
   * reply already in hand); the database goes back once the transaction has ended.
   */
  async #execute(
    connection: ServedConnection,
    message: Uint8Array | undefined,
    reply?: Uint8Array,
    dropCopyIn = false,
  ): Promise<void> {
    const held = this.#held;
    const session = this.#session;
    if (held === undefined || session === undefined) return;
    const frames = new ReplyFrames();
    let copyInDropped = !dropCopyIn;
    const changes = message === undefined ? [] : listenChanges(message);
    const again = changes.length === 0 ? [] : held.listen(session, changes);
    const deliver = (chunk: Uint8Array) => {
      let messages = frames.take(chunk);
      if (!copyInDropped && copyInResponse(messages) !== undefined) {
        messages = withoutCopyIn(messages);
        copyInDropped = true;
      }
      messages = routeNotifications(messages, held, this.#context.key.processId, (to, sent) =>
        this.#context.notify(to, sent),
      );
      if (frames.fatal !== undefined) return this.#backendBroke(held, messages, frames.fatal);
      // The compute's work ends as the client is told its transaction is over, not after: the
      // client may act on the answer (move the clock, say) before the backend has finished.
      if (frames.status === 'I') this.#rest(connection);
      return this.#send(messages);
    };
    // What is read of the message is read now: COPY data may be handed over below.
    const resetsTimeout = message !== undefined && maySetTimeout(message);
    const needsReady = message !== undefined && awaitsReady(message);
    const timeoutMs = message === undefined ? 0 : await statementTimeoutOf(held, session);
    const timer =
      timeoutMs > 0 ? setTimeout(() => this.cancel(PG_ERRORS.timedOut), timeoutMs) : undefined;
    this.#executing = true;
    try {
      // COPY data is handed over to the database's thread, not copied: it is read no more here.
      if (message !== undefined) await held.exec(message, deliver, dropCopyIn);
      else if (reply !== undefined) await deliver(reply);
    } finally {
      this.#executing = false;
      clearTimeout(timer);
    }
    if (this.#backendFailed) return;
    if (needsReady && frames.status === undefined) {
      // The backend ran the batch and said nothing, not even that it was ready: it is broken
      // (an embedded Postgres after `COPY … PROGRAM` answers nothing ever again).
      const silent = PG_ERRORS.unavailable('the database stopped answering; it was restarted');
      await this.#backendBroke(held, fatalMessage(silent), silent);
      return;
    }
    this.#status = frames.status ?? this.#status;
    if (this.#ended) return;
    if (resetsTimeout) session.statementTimeoutMs = undefined;
    await held.listenAgain(again);
    if (frames.status === 'I') await this.#releaseDatabase();
  }

  /**
   * The backend answered FATAL or PANIC, or nothing at all: as a Postgres backend would, it goes
   * (the instance is stopped, and the next statement opens it again) and so does this client,
   * told why (`messages`, ending with the FATAL).
   */
  #backendBroke(held: HeldDatabase, messages: Uint8Array, fatal: SqlError): Promise<void> | void {
    if (this.#backendFailed) return;
    this.#backendFailed = true;
    this.#held = undefined;
    this.#context.handshake.log(
      `a database answered ${fatal.sqlstate} ${fatal.message}: restarted`,
    );
    void held.stop().catch(() => undefined);
    const sent = this.#send(messages);
    void (sent ?? Promise.resolve()).then(() => this.end());
  }

  /**
   * Answers a refused statement with its error, in place of the whole batch it came in: the
   * backend runs a statement that fails instead, so that an open transaction fails as it would
   * (or, already failed, answers 25P02 as Postgres does). After a Flush the ReadyForQuery waits
   * for the client's Sync.
   */
  async #refuse(connection: ServedConnection, refusal: Refusal, flushed: boolean): Promise<void> {
    const held = this.#held;
    if (held === undefined) return;
    const reply = await held.reply(queryMessage(FAILING_STATEMENT));
    const status = lastTransactionStatus(reply) ?? 'I';
    this.#status = status;
    const backendError = reply.subarray(0, 1 + Buffer.from(reply).readUInt32BE(1));
    const error = isFailing(backendError)
      ? errorResponse({
          severity: 'ERROR',
          code: refusal.sqlstate,
          message: refusal.message,
          ...(refusal.detail === undefined ? {} : { detail: refusal.detail }),
          ...(refusal.hint === undefined ? {} : { hint: refusal.hint }),
        })
      : backendError;
    await this.#send(flushed ? Buffer.from(error) : Buffer.concat([error, readyForQuery(status)]));
    if (flushed) this.#skipUntilSync = status;
    if (status === 'I') {
      this.#rest(connection);
      await this.#releaseDatabase();
    }
  }

  /** A notification for this client, from another's statement: it reads it between messages. */
  notify(message: Uint8Array): void {
    if (this.#ended || this.#socket.destroyed || this.#socket.writableEnded) return;
    // A listener that does not read its notifications is not kept in memory without end.
    if (this.#socket.writableLength > MAX_UNREAD_NOTIFICATION_BYTES) {
      this.terminate(NOT_READING);
      return;
    }
    this.#socket.write(message);
  }

  /**
   * A statement that may read COPY data: run with a `CopyFail` after it, to learn its
   * `CopyInResponse`. When it is a COPY, the client is sent that and the session gathers its data
   * (`undefined`); when it is not, outside a transaction its reply is the statement's own (it has
   * run), inside one the probe's savepoint undid it and it runs again (`undefined`, no copy).
   */
  async #probeCopy(held: HeldDatabase, statement: Uint8Array): Promise<Uint8Array | undefined> {
    const inTransaction = this.#status !== 'I';
    const chunks: Uint8Array[] = [];
    this.#executing = true;
    try {
      await held.exec(copyProbe(statement, inTransaction), (chunk) => void chunks.push(chunk));
    } finally {
      this.#executing = false;
    }
    const reply = Buffer.concat(chunks);
    const header = copyInResponse(reply);
    if (header !== undefined) {
      this.#copy = new CopyInProgress(statement);
      await this.#send(Buffer.from(header));
      return undefined;
    }
    return inTransaction ? undefined : reply;
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
    const { sqlstate, message } = this.#cancelled ?? PG_ERRORS.cancelled;
    this.#cancelled = undefined;
    this.#held = undefined;
    this.#copy = undefined;
    this.#status = 'I';
    if (this.#session !== undefined) this.#session.statementTimeoutMs = undefined;
    this.#rest(connection);
    void this.#send(
      Buffer.concat([
        errorResponse({ severity: 'ERROR', code: sqlstate, message }),
        readyForQuery('I'),
      ]),
    );
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
