/**
 * `COPY … FROM STDIN` on an embedded Postgres, which reads a whole exchange in one call and cannot
 * wait for the client's data: the front first runs the statement with a `CopyFail` after it (inside
 * a savepoint when a transaction is open) to learn the `CopyInResponse` the client must read, sends
 * it, gathers the client's `CopyData` up to a bound, and runs the statement again with all of it
 * and the client's `CopyDone` (or `CopyFail`) in one call.
 */
import { backendMessage, queryMessage } from './backendMessages.js';
import { COPY_DATA, COPY_DONE, COPY_FAIL, COPY_IN_RESPONSE, QUERY } from './messageTypes.js';

/** The most COPY data the front gathers for one statement before it refuses it (as a message). */
export const MAX_COPY_BYTES = 64 * 1024 * 1024;

/** Whether `message` is a simple query that reads COPY data from the client. */
export function isCopyFromStdin(message: Uint8Array): boolean {
  if (message[0] !== QUERY) return false;
  const sql = Buffer.from(message.buffer, message.byteOffset, message.byteLength)
    .toString('utf8', 5)
    .replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ' ');
  return /(?:^|;)\s*copy\b[^;]*\bfrom\s+stdin\b/i.test(sql);
}

const SAVEPOINT = 'computesim_copy_probe';

/**
 * What to run to learn the statement's `CopyInResponse` without doing it: the statement, then a
 * `CopyFail`; in a savepoint when a transaction is open, so that the failure does not end it.
 */
export function copyProbe(statement: Uint8Array, inTransaction: boolean): Buffer {
  const fail = backendMessage('f', Buffer.from('computesim: reading the COPY header\0', 'utf8'));
  if (!inTransaction) return Buffer.concat([statement, fail]);
  return Buffer.concat([
    queryMessage(`SAVEPOINT ${SAVEPOINT}`),
    statement,
    fail,
    queryMessage(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}; RELEASE SAVEPOINT ${SAVEPOINT}`),
  ]);
}

/** The first message of `type` in a reply (whole messages), or `undefined`. */
function firstMessage(reply: Uint8Array, type: number): Uint8Array | undefined {
  let offset = 0;
  while (offset + 5 <= reply.length) {
    const length = Buffer.from(reply.buffer, reply.byteOffset, reply.byteLength).readUInt32BE(
      offset + 1,
    );
    if (reply[offset] === type) return reply.subarray(offset, offset + 1 + length);
    offset += 1 + length;
  }
  return undefined;
}

/** The `CopyInResponse` of a probe's reply, if the statement was a COPY FROM STDIN. */
export function copyInResponse(reply: Uint8Array): Uint8Array | undefined {
  return firstMessage(reply, COPY_IN_RESPONSE);
}

/** A COPY FROM STDIN under way: the statement and the client's data so far. */
export class CopyInProgress {
  readonly #statement: Uint8Array;
  readonly #data: Uint8Array[] = [];
  #bytes = 0;
  #overflow = false;

  constructor(statement: Uint8Array) {
    this.#statement = statement;
  }

  /** Whether `message` ends the copy (`CopyDone` or `CopyFail`). */
  static ends(message: Uint8Array): boolean {
    return message[0] === COPY_DONE || message[0] === COPY_FAIL;
  }

  /** Whether `message` is the client's data. */
  static isData(message: Uint8Array): boolean {
    return message[0] === COPY_DATA;
  }

  /** Takes one `CopyData`; past the bound the data is dropped and the copy will be refused. */
  add(message: Uint8Array): void {
    if (this.#overflow) return;
    this.#bytes += message.length;
    if (this.#bytes > MAX_COPY_BYTES) {
      this.#overflow = true;
      this.#data.length = 0;
      return;
    }
    this.#data.push(message);
  }

  /** Whether more data came than the front gathers. */
  get overflowed(): boolean {
    return this.#overflow;
  }

  /** The whole exchange to run, ended by the client's `end` (`CopyDone` or `CopyFail`). */
  exchange(end: Uint8Array): Buffer {
    return Buffer.concat([this.#statement, ...this.#data, end]);
  }
}

/** A reply with its first `CopyInResponse` left out (the client has read it already). */
export function withoutCopyIn(reply: Uint8Array): Uint8Array {
  const found = copyInResponse(reply);
  if (found === undefined) return reply;
  const start = found.byteOffset - reply.byteOffset;
  return Buffer.concat([reply.subarray(0, start), reply.subarray(start + found.length)]);
}
