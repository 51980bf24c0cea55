/**
 * A logged-in client on the embedded engine (PGlite): its messages read one at a time and run on
 * its branch database's one backend, which it holds from a statement's arrival until its
 * transaction ends (the other clients of the database wait their turn, their sessions kept by
 * `sessionSwitch`). Extended-protocol batches wait for their Sync or Flush, as the embedded
 * Postgres runs a batch in one call; `COPY FROM STDIN` gathers its data first; refused statements
 * fail as Postgres would fail them; a cancel or a statement timeout stops the instance (it cannot
 * be interrupted otherwise); notifications go to the sessions that listen.
 */
import type { Duplex } from 'node:stream';
import type { SqlError } from '../domain/sqlState.js';
import type { DatabaseRef, HeldDatabase } from './branchDatabases.js';
import type { FrontHost } from './frontHost.js';
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
import { backendMessage, errorResponse, queryMessage, readyForQuery } from './backendMessages.js';
import { isLoggedInMessageType, MESSAGE_LIMITS, type ClientMessages } from './clientMessages.js';
import { awaitsReady } from './clientBatch.js';
import { listenChanges, routeNotifications } from './notifications.js';
import { maySetTimeout, statementTimeoutOf } from './statementTimeout.js';
import type { SessionState } from './sessionState.js';
import { BIND, CLOSE, DESCRIBE, EXECUTE, FLUSH, PARSE, SYNC, TERMINATE } from './messageTypes.js';

/** What the traffic needs of its session. */
export interface EmbeddedHooks {
  readonly host: FrontHost;
  /** The client's database, and whether its compute is a read replica. */
  readonly target: DatabaseRef & { readonly readOnly: boolean };
  /** The client's own session (settings, prepared statements, temporary tables). */
  readonly session: SessionState;
  /** The session's process id (its notifications' sender). */
  readonly processId: number;
  hold(database: DatabaseRef): Promise<HeldDatabase>;
  /** Hands a notification to the session with process id `processId`. */
  notify(processId: number, message: Uint8Array): void;
  log(line: string): void;
  /** Work arrived while the client had none: false when the compute cannot take it (ended). */
  busy(): boolean;
  /** The client's transaction has ended: the compute's idle clock may run. */
  rest(): void;
  /** Ends the session with `error`, a FATAL the client reads. */
  terminate(error: SqlError): void;
  /** Something unexpected: the client reads 08006 with the reason, and goes. */
  failed(error: unknown): void;
  /** The client said goodbye. */
  end(): Promise<void>;
  /** Whether the session has ended. */
  ended(): boolean;
}

/** Parse, Bind, Describe, Execute, Close: messages whose replies may wait for a Sync or Flush. */
const DEFERRED: ReadonlySet<number> = new Set([PARSE, BIND, DESCRIBE, EXECUTE, CLOSE]);
/** The end sent in place of the client's when its COPY data went past the bound. */
const COPY_TOO_LARGE = backendMessage(
  'f',
  Buffer.from(`more than ${MAX_COPY_BYTES >> 20} MiB of COPY data for one statement\0`, 'utf8'),
);

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

/** Serves one logged-in client on the embedded engine. */
export class EmbeddedTraffic {
  readonly #socket: Duplex;
  readonly #hooks: EmbeddedHooks;
  #held: HeldDatabase | undefined;
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

  constructor(
    socket: Duplex,
    messages: ClientMessages,
    early: readonly Uint8Array[],
    hooks: EmbeddedHooks,
  ) {
    this.#socket = socket;
    this.#hooks = hooks;
    this.#read(messages, early);
  }

  /**
   * The session has ended: what it held goes back (a statement still running for a client that
   * has gone is stopped, not waited for).
   */
  async close(): Promise<void> {
    this.#pending = [];
    this.#copy = undefined;
    const held = this.#held;
    this.#held = undefined;
    if (this.#executing) await held?.stop().catch(() => undefined);
    else await held?.release({ rollback: true }).catch(() => undefined);
  }

  /**
   * Cancels the statement running now, if one is: its instance is stopped (an embedded Postgres
   * cannot be interrupted otherwise), so the client reads 57014 and its transaction is gone.
   */
  cancel(why: SqlError = PG_ERRORS.cancelled): void {
    if (!this.#executing || this.#hooks.ended()) return;
    this.#cancelled = why;
    void this.#held?.stop();
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
        for (
          let next = queue.shift();
          next !== undefined && !this.#hooks.ended();
          next = queue.shift()
        )
          await this.#forward(next);
      } finally {
        serving = false;
        if (!this.#hooks.ended()) this.#socket.resume();
      }
    };
    this.#socket.on('data', (chunk: Buffer) => {
      const read = messages.read(chunk);
      queue.push(...read.messages);
      if (read.violation !== undefined) {
        this.#hooks.log(`a client broke the protocol: ${read.violation.message}`);
        this.#hooks.terminate(read.violation);
        return;
      }
      serve().catch((error: unknown) => this.#hooks.failed(error));
    });
    serve().catch((error: unknown) => this.#hooks.failed(error));
  }

  /** Runs a client message on the branch database, holding it until the transaction ends. */
  async #forward(data: Uint8Array): Promise<void> {
    if (data[0] === TERMINATE) {
      await this.#hooks.end();
      return;
    }
    const target = this.#hooks.target;
    if (this.#hooks.ended()) return;
    if (!isLoggedInMessageType(data[0] as number)) {
      // A password message sent behind the first one, read before the client was in.
      this.#hooks.log(`a client broke the protocol: message type ${data[0]}`);
      this.#hooks.terminate(invalidType(data[0] as number));
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
      if (this.#pendingBytes > MAX_PENDING_BYTES) this.#hooks.terminate(PENDING_TOO_LARGE);
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
        if (!this.#hooks.busy()) return;
        const held = await this.#hooks.hold(target);
        if (this.#hooks.ended()) {
          await held.release({ rollback: true });
          return;
        }
        this.#held = held;
        if (this.#hooks.session !== undefined) await held.enter(this.#hooks.session);
        await held.setReadOnly(target.readOnly);
      }
      const refusal = copy === undefined ? refusalInMessages(message) : undefined;
      if (refusal !== undefined) {
        await this.#refuse(refusal, data[0] === FLUSH);
        return;
      }
      if (copy === undefined && isCopyFromStdin(message)) {
        const probed = await this.#probeCopy(this.#held, message);
        if (probed !== undefined) {
          await this.#execute(undefined, probed);
          return;
        }
        if (this.#hooks.ended() || this.#copy !== undefined) return;
      }
      await this.#execute(run, undefined, copy !== undefined);
    } catch (error) {
      if (this.#backendFailed) return;
      if (this.#cancelled !== undefined && !this.#hooks.ended()) this.#afterCancel();
      else {
        this.#hooks.failed(error);
      }
    }
  }

  /**
   * Runs `message` on the held database with the reply streamed to the client (or passes on a
   * reply already in hand); the database goes back once the transaction has ended.
   */
  async #execute(
    message: Uint8Array | undefined,
    reply?: Uint8Array,
    dropCopyIn = false,
  ): Promise<void> {
    const held = this.#held;
    const session = this.#hooks.session;
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
      messages = routeNotifications(messages, held, this.#hooks.processId, (to, sent) =>
        this.#hooks.notify(to, sent),
      );
      if (frames.fatal !== undefined) return this.#backendBroke(held, messages, frames.fatal);
      // The compute's work ends as the client is told its transaction is over, not after: the
      // client may act on the answer (move the clock, say) before the backend has finished.
      if (frames.status === 'I') this.#hooks.rest();
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
    if (this.#hooks.ended()) return;
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
    this.#hooks.log(`a database answered ${fatal.sqlstate} ${fatal.message}: restarted`);
    void held.stop().catch(() => undefined);
    const sent = this.#send(messages);
    void (sent ?? Promise.resolve()).then(() => this.#hooks.end());
  }

  /**
   * Answers a refused statement with its error, in place of the whole batch it came in: the
   * backend runs a statement that fails instead, so that an open transaction fails as it would
   * (or, already failed, answers 25P02 as Postgres does). After a Flush the ReadyForQuery waits
   * for the client's Sync.
   */
  async #refuse(refusal: Refusal, flushed: boolean): Promise<void> {
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
      this.#hooks.rest();
      await this.#releaseDatabase();
    }
  }

  /** A notification for this client, from another's statement: it reads it between messages. */
  notify(message: Uint8Array): void {
    if (this.#hooks.ended() || this.#socket.destroyed || this.#socket.writableEnded) return;
    // A listener that does not read its notifications is not kept in memory without end.
    if (this.#socket.writableLength > MAX_UNREAD_NOTIFICATION_BYTES) {
      this.#hooks.terminate(NOT_READING);
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
    if (messages.length === 0 || this.#hooks.ended() || socket.destroyed || socket.writableEnded)
      return undefined;
    return new Promise((resolve) => socket.write(messages, () => resolve()));
  }

  /** A cancelled statement: the client reads 57014, and its transaction is gone with the instance. */
  #afterCancel(): void {
    const { sqlstate, message } = this.#cancelled ?? PG_ERRORS.cancelled;
    this.#cancelled = undefined;
    this.#held = undefined;
    this.#copy = undefined;
    this.#status = 'I';
    if (this.#hooks.session !== undefined) this.#hooks.session.statementTimeoutMs = undefined;
    this.#hooks.rest();
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
}
