/**
 * A backend's reply, streamed in chunks, cut at message boundaries: what goes to the client is only
 * ever whole messages, so the front may put its own message (a FATAL as the control plane drops
 * the client) between any two. On the way it reads the transaction status of the last
 * ReadyForQuery (`I` idle, `T` in a transaction, `E` in a failed transaction), and stops at an
 * error of severity FATAL or PANIC: the backend that says it is broken (what follows is not
 * passed on; an embedded Postgres may repeat such an error without end). Messages are
 * `type(1) length(4, including itself) payload`.
 */
import type { SqlError } from '../domain/sqlState.js';
import { ERROR_RESPONSE, HEADER_BYTES, READY_FOR_QUERY } from './messageTypes.js';

/** The transaction status a ReadyForQuery reports. */
export type TransactionStatus = 'I' | 'T' | 'E';

const NOTHING = new Uint8Array(0);

/** Cuts one reply into whole messages, chunk by chunk. */
export class ReplyFrames {
  #status: TransactionStatus | undefined;
  #readies = 0;
  #fatal: SqlError | undefined;
  /** The start of a message not yet whole, as it came. */
  #parts: Uint8Array[] = [];
  #held = 0;
  /** The whole size of that message, once its header is known. */
  #needed = 0;

  /** The status of the last ReadyForQuery passed on so far, or `undefined`. */
  get status(): TransactionStatus | undefined {
    return this.#status;
  }

  /** ReadyForQuery messages passed on so far. */
  get readies(): number {
    return this.#readies;
  }

  /** The FATAL or PANIC error the backend answered, if it did (nothing after it is passed on). */
  get fatal(): SqlError | undefined {
    return this.#fatal;
  }

  /** The whole messages that `chunk` completes, in order; the start of the next one is kept. */
  take(chunk: Uint8Array): Uint8Array {
    if (this.#fatal !== undefined) return NOTHING;
    let data = chunk;
    if (this.#held > 0) {
      this.#parts.push(chunk);
      this.#held += chunk.length;
      if (this.#held < this.#wholeSize()) return NOTHING;
      data = Buffer.concat(this.#parts);
      this.#parts = [];
      this.#held = 0;
      this.#needed = 0;
    }
    let offset = 0;
    while (offset + HEADER_BYTES <= data.length) {
      const length = lengthAt(data, offset + 1);
      // Not the protocol: pass it all on as it is.
      if (length < 4) return data;
      if (offset + 1 + length > data.length) break;
      if (data[offset] === READY_FOR_QUERY && length === 5) {
        this.#status = String.fromCharCode(data[offset + 5] as number) as TransactionStatus;
        this.#readies += 1;
      }
      if (data[offset] === ERROR_RESPONSE) {
        this.#fatal = fatalError(data.subarray(offset + HEADER_BYTES, offset + 1 + length));
        if (this.#fatal !== undefined) {
          this.#parts = [];
          this.#held = 0;
          return data.subarray(0, offset + 1 + length);
        }
      }
      offset += 1 + length;
    }
    if (offset < data.length) {
      this.#parts = [data.subarray(offset)];
      this.#held = data.length - offset;
    }
    return offset === data.length ? data : data.subarray(0, offset);
  }

  /** The size the kept message will have whole (its header's, while the header is incomplete). */
  #wholeSize(): number {
    if (this.#needed > 0) return this.#needed;
    if (this.#held < HEADER_BYTES) return HEADER_BYTES;
    const header = Buffer.concat(this.#parts).subarray(0, HEADER_BYTES);
    this.#needed = 1 + Math.max(4, lengthAt(header, 1));
    return this.#needed;
  }
}

/** The status of the last ReadyForQuery in `reply`, or `undefined` when it has none. */
export function lastTransactionStatus(reply: Uint8Array): TransactionStatus | undefined {
  const frames = new ReplyFrames();
  frames.take(reply);
  return frames.status;
}

/** An ErrorResponse's code and message when its severity is FATAL or PANIC. */
function fatalError(fields: Uint8Array): SqlError | undefined {
  const text = Buffer.from(fields.buffer, fields.byteOffset, fields.byteLength).toString('utf8');
  const values = new Map<string, string>();
  for (const field of text.split('\0'))
    if (field.length > 0) values.set(field[0] as string, field.slice(1));
  const severity = values.get('V') ?? values.get('S');
  if (severity !== 'FATAL' && severity !== 'PANIC') return undefined;
  return { sqlstate: values.get('C') ?? 'XX000', message: values.get('M') ?? severity };
}

function lengthAt(data: Uint8Array, offset: number): number {
  return (
    (((data[offset] as number) << 24) |
      ((data[offset + 1] as number) << 16) |
      ((data[offset + 2] as number) << 8) |
      (data[offset + 3] as number)) >>>
    0
  );
}
