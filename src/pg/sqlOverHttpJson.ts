/**
 * Where the JSON of a `POST /sql` answer is written as its statements run: one buffer, grown as
 * needed, whose length the answer's size limit is checked against.
 */

/** The JSON of an answer, written piece by piece into one growing buffer (its bytes are counted). */
export class JsonWriter {
  #buffer = Buffer.allocUnsafe(16 * 1024);
  #length = 0;

  /** Bytes written so far. */
  get length(): number {
    return this.#length;
  }

  /** Appends `text`, as UTF-8. */
  write(text: string): void {
    const needed = this.#length + Buffer.byteLength(text, 'utf8');
    if (needed > this.#buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.#buffer.length * 2));
      this.#buffer.copy(grown, 0, 0, this.#length);
      this.#buffer = grown;
    }
    this.#length += this.#buffer.write(text, this.#length, 'utf8');
  }

  /** What was written. */
  bytes(): Buffer {
    return this.#buffer.subarray(0, this.#length);
  }
}
