/**
 * Cuts the bytes a Postgres client sends into messages: first untyped ones (`length(4) payload`:
 * an SSL, GSS or cancel request, the startup message), then, from the startup message on, typed
 * ones (`type(1) length(4) payload`): a client may send its password right behind its startup.
 *
 * Each message is held to the limit Postgres holds it to (see `MESSAGE_LIMITS`), and the bytes a
 * client may have waiting are bounded before it has logged in. A message of a type the protocol
 * does not have, or a length it cannot have, is a violation, reported once; nothing is read after
 * it. Chunks are kept as they come and joined once per message, so a large message costs its own
 * size, not the square of its chunks.
 */
import type { SqlError } from '../domain/sqlState.js';
import { PASSWORD_MESSAGE } from './messageTypes.js';

/** The limits, in bytes. */
export const MESSAGE_LIMITS = {
  /** Longest startup packet (Postgres's `MAX_STARTUP_PACKET_LENGTH`). */
  startup: 10_000,
  /** Longest password or SASL message before login (Postgres's `PG_MAX_AUTH_TOKEN_LENGTH`). */
  auth: 65_535,
  /** Longest Sync, Flush, Terminate, Describe, Close, Execute, CopyDone or CopyFail. */
  small: 10_000,
  /**
   * Longest Query, Parse, Bind, FunctionCall or CopyData. Postgres takes up to 1 GiB; the front
   * holds a message whole before it runs, so it takes at most this much.
   */
  large: 64 * 1024 * 1024,
  /** Bytes a client may send before it has logged in (its startup, password, pipelined queries). */
  beforeLogin: 1024 * 1024,
} as const;

/** The protocol version a startup message names (3.0); after it, messages are typed. */
const PROTOCOL_3_0 = 196_608;
/** Typed messages that may be as long as `large`. */
const LARGE_TYPES = new Set('BFPQd'.split('').map((c) => c.charCodeAt(0)));
/** Every other type a frontend may send after its startup ('p' only until it has logged in). */
const SMALL_TYPES = new Set('CDEHSXcf'.split('').map((c) => c.charCodeAt(0)));

/** Whether a logged-in client may send a message of type `type`. */
export function isLoggedInMessageType(type: number): boolean {
  return LARGE_TYPES.has(type) || SMALL_TYPES.has(type);
}

/** What the reader found: messages, then possibly a violation. */
export interface ReadMessages {
  readonly messages: Uint8Array[];
  /** Why the rest cannot be read, when it cannot: the FATAL the client is told. */
  readonly violation?: SqlError;
  /**
   * Whether the connection closes without a word, as Postgres closes one whose startup packet has
   * an impossible length (it logs the reason; a client that hung up early is not sent an error).
   */
  readonly quiet?: boolean;
}

/** Reads one client's messages as its bytes arrive. */
export class ClientMessages {
  #chunks: Buffer[] = [];
  /** Bytes in `#chunks`. */
  #size = 0;
  #typed = false;
  #broken = false;
  #loggedIn = false;
  /** Bytes read before the client logged in. */
  #beforeLogin = 0;

  /** Takes the next bytes; returns the whole messages they complete. */
  read(chunk: Uint8Array): ReadMessages {
    if (this.#broken || chunk.byteLength === 0) return { messages: [] };
    this.#chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this.#size += chunk.byteLength;
    const messages: Uint8Array[] = [];
    if (!this.#loggedIn) {
      this.#beforeLogin += chunk.byteLength;
      if (this.#beforeLogin > MESSAGE_LIMITS.beforeLogin)
        return this.#break(messages, {
          sqlstate: '08P01',
          message: `more than ${MESSAGE_LIMITS.beforeLogin} bytes sent before authentication`,
        });
    }
    for (;;) {
      const head = this.#typed ? 1 : 0;
      if (this.#size < head + 4) break;
      const header = this.#peek(head + 4);
      const length = header.readUInt32BE(head);
      const problem = this.#typed
        ? this.#typedProblem(header[0] as number, length)
        : startupProblem(length);
      if (problem !== undefined) return this.#break(messages, problem, !this.#typed);
      if (this.#size < head + length) break;
      const message = this.#take(head + length);
      messages.push(message);
      if (!this.#typed && message.readInt32BE(4) === PROTOCOL_3_0) this.#typed = true;
    }
    return { messages };
  }

  /** The client has logged in: messages as long as a logged-in client's may come. */
  loggedIn(): void {
    this.#loggedIn = true;
  }

  /** Bytes of an unfinished message waiting for the rest. */
  get buffered(): number {
    return this.#size;
  }

  #typedProblem(type: number, length: number): SqlError | undefined {
    const known = LARGE_TYPES.has(type) || SMALL_TYPES.has(type) || type === PASSWORD_MESSAGE;
    if (!known || (type === PASSWORD_MESSAGE && this.#loggedIn))
      return { sqlstate: '08P01', message: `invalid frontend message type ${type}` };
    const limit =
      !this.#loggedIn && type === PASSWORD_MESSAGE
        ? MESSAGE_LIMITS.auth
        : LARGE_TYPES.has(type)
          ? MESSAGE_LIMITS.large
          : MESSAGE_LIMITS.small;
    if (length < 4 || length - 4 > limit)
      return { sqlstate: '08P01', message: `invalid message length ${length}` };
    return undefined;
  }

  #break(messages: Uint8Array[], violation: SqlError, quiet = false): ReadMessages {
    this.#broken = true;
    this.#chunks = [];
    this.#size = 0;
    return { messages, violation, ...(quiet ? { quiet } : {}) };
  }

  /** The first `n` bytes or more, joining the first chunks while they are shorter (a header). */
  #peek(n: number): Buffer {
    let joined = this.#chunks[0] as Buffer;
    let count = 1;
    while (joined.length < n) {
      joined = Buffer.concat([joined, this.#chunks[count] as Buffer]);
      count += 1;
    }
    if (count > 1) this.#chunks.splice(0, count, joined);
    return joined;
  }

  /** Removes and returns the first `n` bytes: a view when one chunk holds them, else one copy. */
  #take(n: number): Buffer {
    this.#size -= n;
    const first = this.#chunks[0] as Buffer;
    if (first.length >= n) {
      if (first.length === n) this.#chunks.shift();
      else this.#chunks[0] = first.subarray(n);
      return first.subarray(0, n);
    }
    const message = Buffer.allocUnsafe(n);
    let filled = 0;
    while (filled < n) {
      const chunk = this.#chunks[0] as Buffer;
      const part = Math.min(chunk.length, n - filled);
      chunk.copy(message, filled, 0, part);
      filled += part;
      if (part === chunk.length) this.#chunks.shift();
      else this.#chunks[0] = chunk.subarray(part);
    }
    return message;
  }
}

function startupProblem(length: number): SqlError | undefined {
  return length < 8 || length > MESSAGE_LIMITS.startup
    ? { sqlstate: '08P01', message: `invalid length of startup packet (${length} bytes)` }
    : undefined;
}
