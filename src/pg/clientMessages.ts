/**
 * Cuts the bytes a Postgres client sends into messages: first untyped ones (`length(4) payload`:
 * an SSL, GSS or cancel request, the startup message), then, from the startup message on, typed
 * ones (`type(1) length(4) payload`): a client may send its password right behind its startup. A length the protocol cannot have (shorter than its own four bytes, a startup packet
 * over 10,000 bytes, a message over 1 GiB) is a protocol violation, reported once; nothing is read
 * after it.
 */

/** Longest startup packet Postgres accepts. */
const MAX_STARTUP_BYTES = 10_000;
/** Longest message Postgres accepts. */
const MAX_MESSAGE_BYTES = 0x3fffffff;
/** The protocol version a startup message names (3.0); after it, messages are typed. */
const PROTOCOL_3_0 = 196_608;

/** What the reader found: messages, then possibly a violation. */
export interface ReadMessages {
  readonly messages: Uint8Array[];
  /** Why the rest cannot be read, when it cannot. */
  readonly violation?: string;
}

/** Reads one client's messages as its bytes arrive. */
export class ClientMessages {
  #buffer: Buffer = Buffer.alloc(0);
  #typed = false;
  #broken = false;

  /** Takes the next bytes; returns the whole messages they complete. */
  read(chunk: Uint8Array): ReadMessages {
    if (this.#broken) return { messages: [] };
    this.#buffer =
      this.#buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.#buffer, chunk]);
    const messages: Uint8Array[] = [];
    let offset = 0;
    for (;;) {
      const head = this.#typed ? 1 : 0;
      if (offset + head + 4 > this.#buffer.length) break;
      const length = this.#buffer.readUInt32BE(offset + head);
      const limit = this.#typed ? MAX_MESSAGE_BYTES : MAX_STARTUP_BYTES;
      if (length < 4 || length > limit || (!this.#typed && length < 8)) {
        this.#broken = true;
        this.#buffer = Buffer.alloc(0);
        return {
          messages,
          violation: this.#typed
            ? `invalid message length ${length}`
            : `invalid length of startup packet (${length} bytes)`,
        };
      }
      if (offset + head + length > this.#buffer.length) break;
      const message = this.#buffer.subarray(offset, offset + head + length);
      messages.push(message);
      offset += head + length;
      if (!this.#typed && message.readInt32BE(4) === PROTOCOL_3_0) this.#typed = true;
    }
    this.#buffer = this.#buffer.subarray(offset);
    return { messages };
  }

  /** Bytes of an unfinished message waiting for the rest. */
  get buffered(): number {
    return this.#buffer.length;
  }
}
