/**
 * A logged-in client and its own backend on a real Postgres (`--pg-engine postgres`): bytes pass
 * both ways as they come, each side's flow held back while the other cannot take more. On the way
 * the front reads just enough to keep the simulation true: the client's messages, whole and within
 * their limits, to know when work arrives (a Query, a Sync, a FunctionCall, an extended-protocol
 * batch) and when the client says goodbye; the backend's replies, cut at message boundaries, to know
 * when all of it is answered with no transaction open. From the first till the last, the compute
 * has work (its idle clock does not run), at any clock speed.
 */
import type { Duplex } from 'node:stream';
import type { SqlError } from '../domain/sqlState.js';
import type { BackendLink } from './backendLink.js';
import { isLoggedInMessageType, type ClientMessages, type ReadMessages } from './clientMessages.js';
import { ReplyFrames } from './replyFrames.js';
import {
  BIND,
  CLOSE,
  COMMAND_COMPLETE,
  COPY_DATA,
  COPY_DONE,
  COPY_FAIL,
  COPY_IN_RESPONSE,
  DESCRIBE,
  ERROR_RESPONSE,
  EXECUTE,
  FLUSH,
  FUNCTION_CALL,
  PARSE,
  QUERY,
  SYNC,
  TERMINATE,
} from './messageTypes.js';

/** What the traffic tells its session. */
export interface TrafficHooks {
  /** Work arrived while the client had none: false when the compute cannot take it. */
  busy(): boolean;
  /** Everything the client sent is answered and no transaction is open. */
  rest(): void;
  /** The client broke the protocol (told `error` as a FATAL by the session, which ends). */
  violated(error: SqlError): void;
  /** The client said goodbye, or the backend has gone (after its last words reached the client). */
  ended(): void;
}

/** CopyData, CopyDone, CopyFail: a client's COPY FROM STDIN. */
const COPY_MESSAGES: ReadonlySet<number> = new Set([COPY_DATA, COPY_DONE, COPY_FAIL]);
/** Parse, Bind, Describe, Execute, Close, Flush: a batch that a Sync will end. */
const BATCH: ReadonlySet<number> = new Set([PARSE, BIND, DESCRIBE, EXECUTE, CLOSE, FLUSH]);

/** Passes one client's traffic to and from its backend. */
export class ProxiedTraffic {
  readonly #client: Duplex;
  readonly #link: BackendLink;
  readonly #hooks: TrafficHooks;
  readonly #frames = new ReplyFrames();
  /** ReadyForQuery messages owed: one for each Query, Sync and FunctionCall sent. */
  #owed = 0;
  /** Batch messages sent since the last Sync. */
  #unsynced = false;
  /**
   * Syncs sent since the last Query or Execute: if COPY data follows them, that statement was a
   * COPY FROM STDIN, and the backend ignored them (it ignores Sync during copy-in).
   */
  #syncsSinceStart = 0;
  /** Whether the backend is taking COPY data (from its CopyInResponse to the COPY's end). */
  #copyIn = false;
  #working = false;
  #ended = false;

  constructor(
    client: Duplex,
    link: BackendLink,
    messages: ClientMessages,
    early: readonly Uint8Array[],
    hooks: TrafficHooks,
  ) {
    this.#client = client;
    this.#link = link;
    this.#hooks = hooks;
    const backend = link.socket;
    backend.on('data', (chunk: Buffer) => this.#fromBackend(chunk));
    backend.once('close', () => this.#end());
    client.on('data', (chunk: Buffer) => this.#fromClient(messages.read(chunk)));
    backend.on('drain', () => client.resume());
    client.on('drain', () => backend.resume());
    if (early.length > 0) this.#toBackend(early);
  }

  /** Ends the traffic: the backend is told goodbye. */
  close(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#link.close();
  }

  #fromClient(read: ReadMessages): void {
    if (this.#ended) return;
    this.#toBackend(read.messages);
    if (read.violation !== undefined && !this.#ended) {
      this.close();
      this.#hooks.violated(read.violation);
    }
  }

  #toBackend(messages: readonly Uint8Array[]): void {
    const backend = this.#link.socket;
    backend.cork();
    try {
      for (const message of messages) {
        const type = message[0] as number;
        if (type === TERMINATE) {
          this.close();
          this.#hooks.ended();
          return;
        }
        if (!isLoggedInMessageType(type)) {
          this.close();
          this.#hooks.violated({
            sqlstate: '08P01',
            message: `invalid frontend message type ${type}`,
          });
          return;
        }
        // COPY data after its COPY has failed is ignored by the backend: it is no work.
        const ignored = COPY_MESSAGES.has(type) && !this.#working && !this.#copyIn;
        if (!this.#working && !ignored) {
          if (!this.#hooks.busy()) return;
          this.#working = true;
        }
        this.#count(type);
        if (!backend.write(message)) this.#client.pause();
      }
    } finally {
      backend.uncork();
    }
  }

  /** What a client message owes: the ReadyForQuery it will be answered with, if any. */
  #count(type: number): void {
    if (type === QUERY || type === FUNCTION_CALL) {
      this.#owed += 1;
      this.#syncsSinceStart = 0;
    } else if (type === SYNC) {
      this.#owed += 1;
      this.#syncsSinceStart += 1;
      this.#unsynced = false;
    } else if (BATCH.has(type)) {
      this.#unsynced = true;
      if (type === EXECUTE) this.#syncsSinceStart = 0;
    } else if (COPY_MESSAGES.has(type) && this.#syncsSinceStart > 0) {
      // The Syncs sent behind a COPY's Execute came during copy-in: no answer will come for
      // them, and the batch waits for a Sync after the COPY's end.
      this.#owed = Math.max(0, this.#owed - this.#syncsSinceStart);
      this.#syncsSinceStart = 0;
      this.#unsynced = true;
    }
  }

  #fromBackend(chunk: Buffer): void {
    const readiesBefore = this.#frames.readies;
    const whole = this.#frames.take(chunk);
    this.#followCopy(whole);
    this.#owed = Math.max(0, this.#owed - (this.#frames.readies - readiesBefore));
    if (whole.length > 0 && !this.#client.destroyed && !this.#client.writableEnded)
      if (!this.#client.write(whole)) this.#link.socket.pause();
    if (this.#working && this.#owed === 0 && !this.#unsynced && this.#frames.status === 'I') {
      this.#working = false;
      this.#hooks.rest();
    }
  }

  /** Follows the backend into and out of copy-in (CopyInResponse; the COPY's end or error). */
  #followCopy(messages: Uint8Array): void {
    for (let offset = 0; offset + 5 <= messages.length;) {
      const type = messages[offset] as number;
      if (type === COPY_IN_RESPONSE) this.#copyIn = true;
      else if (type === COMMAND_COMPLETE || type === ERROR_RESPONSE) this.#copyIn = false;
      offset +=
        1 +
        (((messages[offset + 1] as number) << 24) |
          ((messages[offset + 2] as number) << 16) |
          ((messages[offset + 3] as number) << 8) |
          (messages[offset + 4] as number));
    }
  }

  /** The backend has gone: the client has its last words (a FATAL, if it said one); it ends. */
  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#hooks.ended();
  }
}
