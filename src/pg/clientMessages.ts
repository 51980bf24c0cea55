/**
 * Cuts the bytes a Postgres client sends into messages: first untyped ones (`length(4) payload`:
 * the startup message, an SSL, GSS or cancel request), then typed ones (`type(1) length(4)
 * payload`). A length the protocol cannot have (shorter than its own four bytes, a startup packet
 * over 10,000 bytes, a message over 1 GiB) is a protocol violation, reported once; nothing is read
 * after it.
 */

/** Longest startup packet Postgres accepts. */
const MAX_STARTUP_BYTES = 10_000;
/** Longest message Postgres accepts. */
const MAX_MESSAGE_BYTES = 0x3fffffff;

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

  /** From now on messages carry a type byte (after the startup message). */
  startTyped(): void {
    this.#typed = true;
  }

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
      messages.push(this.#buffer.subarray(offset, offset + head + length));
      offset += head + length;
      // Only one untyped message is read at a time: the next may be typed (after a startup).
      if (!this.#typed) break;
    }
    this.#buffer = this.#buffer.subarray(offset);
    return { messages };
  }

  /** Whether bytes of an unfinished message are waiting. */
  get hasMore(): boolean {
    return this.#buffer.length > 0;
  }

  /** Reads what is already buffered (after `startTyped`, say), without new bytes. */
  readBuffered(): ReadMessages {
    return this.read(new Uint8Array(0));
  }
}
