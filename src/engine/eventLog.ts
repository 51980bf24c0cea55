/**
 * The append-only event log: the single source of truth from which state, snapshots, replays and
 * reports are derived. Events are stored encoded in one paged byte stream (a few bytes per event
 * instead of a heap object each), and decoded into fresh objects when read. Each event is its shape
 * id, its time as a varint distance from the previous event's, and its values (see EventCodec).
 * Every 32nd event's byte offset and time are kept, so reading one event decodes at most 31 others'
 * headers.
 */
import { ByteReader, ByteWriter, unzigzag, zigzag } from './byteStream.js';
import { EventCodec } from './eventCodec.js';
import type { LoggedEvent } from './loggedEvent.js';
import { PagedFloat64, PagedUint8 } from './pagedArrays.js';

const CHECKPOINT_BITS = 5;
const CHECKPOINT_MASK = (1 << CHECKPOINT_BITS) - 1;
/** Time header of an event whose time follows as a float64 (not a whole step from the last one). */
const ABSOLUTE_TIME = 1;

/** Append-only, iterable sequence of events; `seq` equals the index. */
export class EventLog<E extends LoggedEvent> implements Iterable<E> {
  readonly #codec = new EventCodec();
  readonly #bytes = new PagedUint8();
  /** Scratch buffers of one event's header and values. */
  readonly #header = new ByteWriter();
  readonly #values = new ByteWriter();
  /** Byte offset and time of event `32 * i`. */
  readonly #checkpointOffsets = new PagedFloat64();
  readonly #checkpointAts = new PagedFloat64();
  #length = 0;
  #lastAt = -Infinity;

  /** Number of events, which is also the `seq` the next event gets. */
  get length(): number {
    return this.#length;
  }

  /** Virtual time of the last event (`-Infinity` for an empty log). */
  get lastAt(): number {
    return this.#lastAt;
  }

  /** Bytes held by the encoded log, and how many distinct shapes and strings it has. */
  get footprint(): { readonly bytes: number; readonly shapes: number; readonly strings: number } {
    const bytes = this.#bytes.bytes + this.#checkpointOffsets.bytes + this.#checkpointAts.bytes;
    return { bytes, ...this.#codec.stats };
  }

  /** Appends one event whose `seq` must equal `length`. The log keeps an encoded copy. */
  append(event: E): void {
    if (event.seq !== this.length) {
      throw new RangeError(`EventLog.append: seq ${event.seq} where ${this.length} was expected`);
    }
    const { at } = event;
    const values = this.#values;
    values.reset();
    const shape = this.#codec.encode(event, at, values);
    const header = this.#header;
    header.reset();
    header.varint(shape);
    const step = at - this.#lastAt;
    const code = this.#lastAt + step === at && Number.isSafeInteger(step) ? zigzag(step) : -1;
    if (code >= 0 && code * 2 + 2 <= Number.MAX_SAFE_INTEGER) header.varint(code * 2 + 2);
    else {
      header.varint(ABSOLUTE_TIME);
      header.float64(at);
    }
    if ((this.#length & CHECKPOINT_MASK) === 0) {
      this.#checkpointOffsets.push(this.#bytes.length);
      this.#checkpointAts.push(at);
    }
    header.copyTo(this.#bytes);
    values.copyTo(this.#bytes);
    this.#lastAt = at;
    this.#length++;
  }

  /** The event with sequence number `seq` (a fresh object), or `undefined`. */
  get(seq: number): E | undefined {
    if (!Number.isInteger(seq) || seq < 0 || seq >= this.length) return undefined;
    const cursor = this.#cursorAt(seq);
    return this.#codec.decode(cursor.shape, cursor.input, cursor.at, seq) as unknown as E;
  }

  /** Virtual time of the event `seq`. */
  atOf(seq: number): number {
    return this.#cursorAt(seq).at;
  }

  /** The header of event `seq`, read by walking from its checkpoint; its values come next. */
  #cursorAt(seq: number): Cursor {
    const block = seq >>> CHECKPOINT_BITS;
    const cursor = new Cursor(
      new ByteReader(this.#bytes, this.#checkpointOffsets.get(block)),
      this.#checkpointAts.get(block),
    );
    cursor.next(true);
    for (let i = seq & CHECKPOINT_MASK; i > 0; i--) {
      this.#codec.skip(cursor.shape, cursor.input);
      cursor.next(false);
    }
    return cursor;
  }

  /** The last event, or `undefined` for an empty log. */
  last(): E | undefined {
    return this.get(this.length - 1);
  }

  /** Events with `from <= seq < to`, as a new array. */
  slice(from = 0, to = this.length): E[] {
    const out: E[] = [];
    for (let seq = Math.max(0, from); seq < Math.min(to, this.length); seq++)
      out.push(this.get(seq) as E);
    return out;
  }

  /** Index of the first event with `at > t` (events are in time order). */
  firstAfter(t: number): number {
    const ats = this.#checkpointAts;
    let lo = 0;
    let hi = ats.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ats.get(mid) <= t) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) return 0;
    let seq = (lo - 1) << CHECKPOINT_BITS;
    const end = Math.min(lo << CHECKPOINT_BITS, this.length);
    const cursor = this.#cursorAt(seq);
    while (cursor.at <= t && ++seq < end) {
      this.#codec.skip(cursor.shape, cursor.input);
      cursor.next(false);
    }
    return seq;
  }

  *[Symbol.iterator](): Iterator<E> {
    if (this.length === 0) return;
    const cursor = new Cursor(new ByteReader(this.#bytes, 0), this.#checkpointAts.get(0));
    for (let seq = 0; seq < this.length; seq++) {
      cursor.next(seq === 0);
      yield this.#codec.decode(cursor.shape, cursor.input, cursor.at, seq) as unknown as E;
    }
  }

  /** Events with `from <= seq < to` as a stream, decoded one after the other (no array). */
  *range(from = 0, to = this.length): Generator<E> {
    const end = Math.min(to, this.length);
    if (from < 0 || from >= end) return;
    const cursor = this.#cursorAt(from);
    for (let seq = from; seq < end; seq++) {
      if (seq > from) cursor.next(false);
      yield this.#codec.decode(cursor.shape, cursor.input, cursor.at, seq) as unknown as E;
    }
  }

  /** Events `from <= seq < to` as JSON Lines, one event a line, each line ending in a newline. */
  *jsonLines(from = 0, to = this.length): Generator<string> {
    for (const event of this.range(from, to)) yield `${JSON.stringify(event)}\n`;
  }

  /** The whole log as one JSON Lines string. */
  toJSONL(): string {
    let out = '';
    for (const line of this.jsonLines()) out += line;
    return out;
  }
}

/** A walk over event headers: the shape and time of the event whose values `input` is at. */
class Cursor {
  shape = 0;

  constructor(
    readonly input: ByteReader,
    public at: number,
  ) {}

  /** Reads the next event's header; at a checkpoint its time is known already. */
  next(atCheckpoint: boolean): void {
    const input = this.input;
    this.shape = input.varint();
    const header = input.varint();
    if (header === ABSOLUTE_TIME) this.at = input.float64();
    else if (!atCheckpoint) this.at += unzigzag(header / 2 - 1);
  }
}
