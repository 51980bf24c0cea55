/**
 * Variable-length numbers for the event log: unsigned LEB128 varints (7 bits a byte, small numbers
 * in one), zigzag for signed ones, and raw float64s for what no integer covers. Written into a
 * reusable buffer (one event at a time), read back from the log's paged bytes.
 */
import type { PagedUint8 } from './pagedArrays.js';

/** Bytes read by index: the log's paged bytes, or one frame of a streamed log (`FlatBytes`). */
export interface ByteSource {
  get(index: number): number;
}

/** A plain byte array as a `ByteSource`. */
export class FlatBytes implements ByteSource {
  constructor(readonly array: Uint8Array) {}

  get(index: number): number {
    return this.array[index] as number;
  }
}

const float = new Float64Array(1);
const floatBytes = new Uint8Array(float.buffer);

/** A reusable, growable byte buffer. */
export class ByteWriter {
  #buffer = new Uint8Array(64);
  /** Where the written bytes begin: 0, or the room left for a header by `resetWithRoom`. */
  #start = 0;
  #length = 0;

  /** Bytes written since the last `reset`. */
  get length(): number {
    return this.#length - this.#start;
  }

  /** Empties the buffer. */
  reset(): void {
    this.#start = 0;
    this.#length = 0;
  }

  /**
   * Empties the buffer, leaving `room` bytes free before what is written next, for a header known
   * only afterwards (`prepend`): an event's bytes then reach the log in one copy instead of two.
   */
  resetWithRoom(room: number): void {
    this.#reserve(room);
    this.#start = room;
    this.#length = room;
  }

  /** Puts the bytes of `header` just before the bytes written since `resetWithRoom`. */
  prepend(header: ByteWriter): void {
    const count = header.#length - header.#start;
    if (count > this.#start)
      throw new RangeError('ByteWriter.prepend: the header outgrows its room');
    const start = this.#start - count;
    for (let i = 0; i < count; i++)
      this.#buffer[start + i] = header.#buffer[header.#start + i] as number;
    this.#start = start;
  }

  /** Appends the written bytes to `out`. */
  copyTo(out: PagedUint8): void {
    out.pushAll(this.#buffer, this.#start, this.#length - this.#start);
  }

  /** Appends the written bytes of `other`. */
  append(other: ByteWriter): void {
    const bytes = other.view();
    this.#reserve(bytes.length);
    this.#buffer.set(bytes, this.#length);
    this.#length += bytes.length;
  }

  /** The bytes written since the last `reset` (a view: valid until the next write). */
  view(): Uint8Array {
    return this.#buffer.subarray(this.#start, this.#length);
  }

  /** Appends a whole number in 0 … 2^53 - 1 as a varint (one byte below 128, five for 2^32 - 1). */
  varint(n: number): void {
    while (n >= 0x80000000) {
      this.#push((n % 128) | 128);
      n = Math.floor(n / 128);
    }
    while (n >= 128) {
      this.#push((n & 127) | 128);
      n >>>= 7;
    }
    this.#push(n);
  }

  /** Appends a 32-bit word as four bytes (random words such as UUID parts compress no better). */
  word(n: number): void {
    this.#push(n >>> 24);
    this.#push((n >>> 16) & 255);
    this.#push((n >>> 8) & 255);
    this.#push(n & 255);
  }

  /** Appends the eight bytes of a float64. */
  float64(n: number): void {
    float[0] = n;
    for (let i = 0; i < 8; i++) this.#push(floatBytes[i] as number);
  }

  #push(byte: number): void {
    if (this.#length === this.#buffer.length) this.#reserve(1);
    this.#buffer[this.#length++] = byte;
  }

  #reserve(extra: number): void {
    if (this.#length + extra <= this.#buffer.length) return;
    let size = this.#buffer.length * 2;
    while (size < this.#length + extra) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.#buffer.subarray(0, this.#length));
    this.#buffer = grown;
  }
}

/** A read position in the bytes of a `ByteWriter`. */
export class ByteReader {
  constructor(
    readonly bytes: ByteSource,
    public position: number,
  ) {}

  /** Reads a varint written by `ByteWriter.varint`. */
  varint(): number {
    const bytes = this.bytes;
    let b = bytes.get(this.position++);
    if (b < 128) return b;
    let n = b & 127;
    let scale = 128;
    for (;;) {
      b = bytes.get(this.position++);
      n += (b & 127) * scale;
      if (b < 128) return n;
      scale *= 128;
    }
  }

  /** Reads a word written by `ByteWriter.word`. */
  word(): number {
    const bytes = this.bytes;
    const p = this.position;
    this.position = p + 4;
    return (
      bytes.get(p) * 0x1000000 +
      ((bytes.get(p + 1) << 16) | (bytes.get(p + 2) << 8) | bytes.get(p + 3))
    );
  }

  /** Reads a float64 written by `ByteWriter.float64`. */
  float64(): number {
    for (let i = 0; i < 8; i++) floatBytes[i] = this.bytes.get(this.position++);
    return float[0] as number;
  }

  /** Moves past one varint without computing it. */
  skipVarint(): void {
    while (this.bytes.get(this.position++) >= 128);
  }
}

/** The zigzag code of a safe integer (0, -1, 1, -2 … → 0, 1, 2, 3 …), or -1 past ±2^51. */
export function zigzag(n: number): number {
  if (n >= 0) return n < 2 ** 51 ? 2 * n : -1;
  return n > -(2 ** 51) ? -2 * n - 1 : -1;
}

/** The integer of a zigzag code. */
export function unzigzag(z: number): number {
  return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
}
