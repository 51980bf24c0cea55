/**
 * The streamed log format: the event log's own compact encoding written out as it grows, so a run
 * of hundreds of millions of events keeps none of them in memory. A file is a magic line, then
 * frames: a tables frame (strings, numbers and shapes the codec learned) before the events frame
 * whose events first use them. Decoding keeps only the tables, and yields events one at a time.
 */
import { ByteReader, FlatBytes, unzigzag } from './byteStream.js';
import { EventCodec } from './eventCodec.js';
import type { CodecTables, Shape } from './eventShapes.js';
import { LogFormatError } from './errors.js';
import type { LoggedEvent } from './loggedEvent.js';

/** Where a streamed log goes: a file, a socket, a buffer in a test. */
export interface LogSink {
  /** Takes bytes to write in order (the buffer may be reused once the call returns). */
  write(bytes: Uint8Array): void;
  /** Makes what was written durable (called by `EventLog.flush()` after its last write). */
  flush?(): void;
  /** Called once by `EventLog.close()`, after the last bytes. */
  close?(): void;
}

/** The first bytes of every streamed log. */
export const LOG_STREAM_MAGIC = new TextEncoder().encode('computesim-log/1\n');
/** A frame's kind: the codec tables learned since the previous one. */
export const TABLES_FRAME = 1;
/** A frame's kind: a run of encoded events. */
export const EVENTS_FRAME = 2;
/** Bytes before a frame's payload: its kind, then the payload's length (uint32, little-endian). */
export const FRAME_HEADER_BYTES = 5;

/** Time header of an event whose time follows as a float64 (as in the in-memory log). */
export const ABSOLUTE_TIME = 1;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A tables frame: JSON of the strings and shapes, its length first, then the numbers as float64s. */
export function tablesFrame(tables: CodecTables): Uint8Array {
  const json = encoder.encode(
    JSON.stringify({
      strings: tables.strings,
      shapes: tables.shapes.map((s) => [s.keys, s.kinds, s.typeName ?? null]),
    }),
  );
  const payload = 4 + json.length + 8 * tables.numbers.length;
  const frame = new Uint8Array(FRAME_HEADER_BYTES + payload);
  const view = new DataView(frame.buffer);
  frame[0] = TABLES_FRAME;
  view.setUint32(1, payload, true);
  view.setUint32(FRAME_HEADER_BYTES, json.length, true);
  frame.set(json, FRAME_HEADER_BYTES + 4);
  let at = FRAME_HEADER_BYTES + 4 + json.length;
  for (const n of tables.numbers) {
    view.setFloat64(at, n, true);
    at += 8;
  }
  return frame;
}

/** The header of an events frame holding `count` events in `bytes` bytes (which follow it). */
export function eventsFrameHeader(count: number, bytes: number): Uint8Array {
  const header = new Uint8Array(FRAME_HEADER_BYTES + 4);
  const view = new DataView(header.buffer);
  header[0] = EVENTS_FRAME;
  view.setUint32(1, 4 + bytes, true);
  view.setUint32(FRAME_HEADER_BYTES, count, true);
  return header;
}

/** Turns the frames of one streamed log, in order, back into events. */
export class LogStreamDecoder {
  readonly #codec = new EventCodec();
  #seq = 0;
  #at = -Infinity;

  /** Events decoded so far. */
  get events(): number {
    return this.#seq;
  }

  /**
   * The events of one frame (none for a tables frame). Throws `LogFormatError` for a frame that
   * does not decode.
   */
  *frame(kind: number, payload: Uint8Array): Generator<LoggedEvent> {
    if (kind === TABLES_FRAME) {
      this.#codec.absorbTables(parseTables(payload));
      return;
    }
    if (kind !== EVENTS_FRAME) throw new LogFormatError(`unknown frame kind ${kind} in the log`);
    if (payload.length < 4) throw new LogFormatError('an events frame without its count');
    const count = new DataView(payload.buffer, payload.byteOffset).getUint32(0, true);
    const input = new ByteReader(new FlatBytes(payload), 4);
    for (let i = 0; i < count; i++) {
      if (input.position >= payload.length)
        throw new LogFormatError(`an events frame ends after ${i} of its ${count} events`);
      const shape = input.varint();
      const time = input.varint();
      this.#at = time === ABSOLUTE_TIME ? input.float64() : this.#at + unzigzag(time / 2 - 1);
      let event: Record<string, unknown>;
      try {
        event = this.#codec.decode(shape, input, this.#at, this.#seq);
      } catch (error) {
        throw new LogFormatError(
          `event ${this.#seq} does not decode: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      this.#seq++;
      yield event as unknown as LoggedEvent;
    }
  }
}

function parseTables(payload: Uint8Array): CodecTables {
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const jsonLength = payload.length >= 4 ? view.getUint32(0, true) : -1;
  const numbersBytes = payload.length - 4 - jsonLength;
  if (jsonLength < 0 || numbersBytes < 0 || numbersBytes % 8 !== 0)
    throw new LogFormatError('a tables frame of the wrong length');
  let parsed: { strings?: unknown; shapes?: unknown };
  try {
    parsed = JSON.parse(decoder.decode(payload.subarray(4, 4 + jsonLength))) as typeof parsed;
  } catch {
    throw new LogFormatError('a tables frame that is not JSON');
  }
  const { strings, shapes } = parsed;
  if (!Array.isArray(strings) || !Array.isArray(shapes))
    throw new LogFormatError('a tables frame without strings and shapes');
  const numbers: number[] = [];
  for (let at = 4 + jsonLength; at < payload.length; at += 8)
    numbers.push(view.getFloat64(at, true));
  return {
    strings: strings.map(String),
    numbers,
    shapes: shapes.map((entry: unknown): Shape => {
      const [keys, kinds, typeName] = entry as [string[], number[], string | null];
      return typeName === null ? { keys, kinds } : { keys, kinds, typeName };
    }),
  };
}
