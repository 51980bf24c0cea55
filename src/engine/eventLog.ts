/**
 * The append-only event log: the single source of truth from which state, snapshots, replays and
 * reports are derived. Events are stored encoded in one paged byte stream (a few bytes per event
 * instead of a heap object each), and decoded into fresh objects when read. Each event is its shape
 * id, its time as a varint distance from the previous event's, and its values (see EventCodec).
 * Every 32nd event's byte offset and time are kept, so reading one event decodes at most 31 others'
 * headers. A log may instead stream the same bytes to a sink as it grows, or keep no events at all;
 * either way it keeps only its header and its length.
 */
import { ByteReader, ByteWriter, unzigzag, zigzag } from './byteStream.js';
import { LogUnavailableError } from './errors.js';
import { EventCodec } from './eventCodec.js';
import type { LoggedEvent } from './loggedEvent.js';
import {
  ABSOLUTE_TIME,
  eventsFrameHeader,
  LOG_STREAM_MAGIC,
  tablesFrame,
  type LogSink,
} from './logStream.js';
import { PagedFloat64, PagedUint8 } from './pagedArrays.js';

const CHECKPOINT_BITS = 5;
const CHECKPOINT_MASK = (1 << CHECKPOINT_BITS) - 1;
/** Encoded bytes a streamed log gathers before it writes a frame. */
const STREAM_FRAME_BYTES = 1 << 20;
/** Bytes an event's header may take: a shape id (3) and a time step (8), or a marker and a float64. */
const HEADER_ROOM = 12;

/**
 * Where a log keeps its events: `'memory'` (all of them, encoded; the default), a `LogSink` it
 * streams them to as they come (keeping none), or `'none'` (counted, not kept: the fastest).
 */
export type LogKeeping = 'memory' | 'none' | LogSink;

const MEMORY = 0;
const STREAM = 1;
const NONE = 2;

/** Append-only, iterable sequence of events; `seq` equals the index. */
export class EventLog<E extends LoggedEvent> implements Iterable<E> {
  readonly #codec = new EventCodec();
  readonly #mode: number;
  readonly #sink: LogSink | undefined;
  /** A streamed log's encoded events not yet written, and how many they are. */
  readonly #pending = new ByteWriter();
  #pendingEvents = 0;
  #closed = false;
  #failure: LogUnavailableError | undefined;
  #first: E | undefined;
  readonly #bytes = new PagedUint8();
  /** Scratch buffers of one event's header and values. */
  readonly #header = new ByteWriter();
  readonly #values = new ByteWriter();
  /** Byte offset and time of event `32 * i`. */
  readonly #checkpointOffsets = new PagedFloat64();
  readonly #checkpointAts = new PagedFloat64();
  #length = 0;
  #lastAt = -Infinity;

  constructor(keeping: LogKeeping = 'memory') {
    if (keeping === 'memory') this.#mode = MEMORY;
    else if (keeping === 'none') this.#mode = NONE;
    else if (
      typeof keeping === 'object' &&
      keeping !== null &&
      typeof keeping.write === 'function'
    ) {
      this.#mode = STREAM;
      this.#sink = keeping;
      keeping.write(LOG_STREAM_MAGIC);
    } else
      throw new RangeError(
        `log must be 'memory', 'none' or a sink with a write(bytes) method, got ${describeKeeping(keeping)}`,
      );
  }

  /** Whether the log holds its events (so it can be read, iterated and replayed). */
  get keepsEvents(): boolean {
    return this.#mode === MEMORY;
  }

  /** The first event (the header of a simulation's log), kept whatever the log keeps. */
  get header(): E | undefined {
    return this.#first;
  }

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
    if (this.#length === 0) this.#first = event;
    if (this.#mode !== MEMORY || this.#closed) {
      this.#appendElsewhere(event);
      return;
    }
    const { at } = event;
    const values = this.#values;
    values.resetWithRoom(HEADER_ROOM);
    const shape = this.#codec.encode(event, at, values);
    const header = this.#header;
    header.reset();
    this.#writeHeader(header, shape, at);
    if ((this.#length & CHECKPOINT_MASK) === 0) {
      this.#checkpointOffsets.push(this.#bytes.length);
      this.#checkpointAts.push(at);
    }
    values.prepend(header);
    values.copyTo(this.#bytes);
    this.#lastAt = at;
    this.#length++;
  }

  /**
   * An event's header: its shape, then its time as a whole step from the previous event's (zigzag,
   * shifted past `ABSOLUTE_TIME`) or, when no whole step says it, `ABSOLUTE_TIME` and the float64.
   */
  #writeHeader(out: ByteWriter, shape: number, at: number): void {
    out.varint(shape);
    const step = at - this.#lastAt;
    const code = this.#lastAt + step === at && Number.isSafeInteger(step) ? zigzag(step) : -1;
    if (code >= 0 && code * 2 + 2 <= Number.MAX_SAFE_INTEGER) out.varint(code * 2 + 2);
    else {
      out.varint(ABSOLUTE_TIME);
      out.float64(at);
    }
  }

  /**
   * Streams or counts an event of a log that does not keep it. A sink that fails does not stop the
   * appends (the caller's state stays in step with `length`): the log remembers the failure, which
   * `failure` reports and `flush` throws, and counts what follows without writing it. The engine
   * throws the failure at the end of the call and refuses every call after it.
   */
  #appendElsewhere(event: E): void {
    if (this.#closed) throw new LogUnavailableError('the log was closed: no event can follow');
    const at = event.at;
    if (this.#mode === STREAM && this.#failure === undefined) {
      const values = this.#values;
      values.reset();
      const shape = this.#codec.encode(event, at, values);
      this.#writeHeader(this.#pending, shape, at);
      this.#pending.append(values);
      this.#pendingEvents++;
    }
    this.#lastAt = at;
    this.#length++;
    if (this.#failure === undefined && this.#pending.length >= STREAM_FRAME_BYTES)
      this.#writeFrames();
  }

  /**
   * Why the log can take no more events: closed, or its sink failed (`undefined` while it can).
   * A simulation checks it before each call, so a broken log changes nothing further.
   */
  get failure(): LogUnavailableError | undefined {
    if (this.#failure !== undefined) return this.#failure;
    return this.#closed
      ? new LogUnavailableError('the log was closed: no event can follow')
      : undefined;
  }

  /** Writes the pending frames to the sink; a failing sink breaks the log for good (`failure`). */
  #writeFrames(): void {
    const sink = this.#sink;
    if (sink === undefined) return;
    try {
      if (this.#pendingEvents > 0) {
        const tables = this.#codec.takeNewTables();
        if (tables !== undefined) sink.write(tablesFrame(tables));
        const bytes = this.#pending.view();
        sink.write(eventsFrameHeader(this.#pendingEvents, bytes.length));
        sink.write(bytes);
        this.#pending.reset();
        this.#pendingEvents = 0;
      }
      sink.flush?.();
    } catch (error) {
      this.#pending.reset();
      this.#pendingEvents = 0;
      this.#failure = new LogUnavailableError(
        `writing the streamed log failed after ${this.#length} events (${error instanceof Error ? error.message : String(error)}); ` +
          'the events before the failure are in whole frames, the rest are lost',
        { cause: error },
      );
    }
  }

  /**
   * Writes a streamed log's pending events to its sink and flushes it (nothing for other logs).
   * Throws `LogUnavailableError` if the sink failed, now or before.
   */
  flush(): void {
    if (this.#failure === undefined) this.#writeFrames();
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Flushes a streamed log and closes its sink; no log takes events afterwards. */
  close(): void {
    if (this.#closed) return;
    if (this.#failure === undefined) this.#writeFrames();
    this.#closed = true;
    this.#sink?.close?.();
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Throws unless the log keeps its events; `what` names the reading that needed them. */
  #requireEvents(what: string): void {
    if (this.#mode === MEMORY) return;
    throw new LogUnavailableError(
      `${what} needs the events, and this log ${this.#mode === STREAM ? 'streams them to its sink (read that file instead)' : "keeps none (log: 'none')"}`,
    );
  }

  /** The event with sequence number `seq` (a fresh object), or `undefined`. */
  get(seq: number): E | undefined {
    if (!Number.isInteger(seq) || seq < 0 || seq >= this.length) return undefined;
    if (seq === 0 && this.#mode !== MEMORY) return this.#first;
    this.#requireEvents(`reading event ${seq}`);
    const cursor = this.#cursorAt(seq);
    return this.#codec.decode(cursor.shape, cursor.input, cursor.at, seq) as unknown as E;
  }

  /** Virtual time of the event `seq`. */
  atOf(seq: number): number {
    this.#requireEvents('atOf');
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
    if (this.#mode !== MEMORY && t >= this.#lastAt) return this.#length;
    this.#requireEvents('firstAfter');
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
    this.#requireEvents('iterating over the log');
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
    this.#requireEvents('reading a range of the log');
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

/** What a caller passed as `log` that is none of its forms, for the refusal. */
function describeKeeping(keeping: unknown): string {
  return typeof keeping === 'string' ? `'${keeping}'` : keeping === null ? 'null' : typeof keeping;
}
