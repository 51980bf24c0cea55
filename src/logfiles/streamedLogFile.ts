/**
 * Streamed log files (`log: LogFileSink.create(path)`): a first pass over their frame headers, and
 * their events decoded one frame at a time, so a file of any length is read in the memory of one
 * frame plus the codec's tables.
 */
import { readSync } from 'node:fs';
import { LogFormatError } from '../engine/errors.js';
import type { LoggedEvent } from '../engine/loggedEvent.js';
import {
  EVENTS_FRAME,
  FRAME_HEADER_BYTES,
  LOG_STREAM_MAGIC,
  LogStreamDecoder,
  TABLES_FRAME,
} from '../engine/logStream.js';

/** What a first pass over a streamed log found: its whole frames and what follows them. */
export interface StreamedLogScan {
  readonly keptBytes: number;
  readonly keptEvents: number;
  /** Bytes after the last whole frame (a run killed while writing), and why they were left out. */
  readonly tornBytes: number;
  readonly tornReason?: string;
}

/** Whether the open file `fd` starts like a streamed log. */
export function isStreamedLog(fd: number, size: number): boolean {
  if (size < LOG_STREAM_MAGIC.length) return false;
  const start = Buffer.alloc(LOG_STREAM_MAGIC.length);
  readSync(fd, start, 0, start.length, 0);
  return start.equals(LOG_STREAM_MAGIC);
}

/** Walks the frame headers of a streamed log of `size` bytes. */
export function scanStreamedLog(fd: number, size: number): StreamedLogScan {
  const header = Buffer.alloc(FRAME_HEADER_BYTES + 4);
  let position = LOG_STREAM_MAGIC.length;
  let events = 0;
  while (position < size) {
    const read = readSync(fd, header, 0, header.length, position);
    if (read < FRAME_HEADER_BYTES)
      return torn(position, events, size, 'the last frame is torn (its header is cut off)');
    const kind = header[0] as number;
    if (kind !== TABLES_FRAME && kind !== EVENTS_FRAME)
      throw new LogFormatError(
        `byte ${position}: unknown frame kind ${kind}: not a computesim log`,
      );
    const length = header.readUInt32LE(1);
    const end = position + FRAME_HEADER_BYTES + length;
    if (end > size)
      return torn(
        position,
        events,
        size,
        'the last frame is torn (the run stopped while writing it)',
      );
    if (kind === EVENTS_FRAME) {
      if (length < 4 || read < FRAME_HEADER_BYTES + 4)
        throw new LogFormatError(`byte ${position}: an events frame without its count`);
      events += header.readUInt32LE(FRAME_HEADER_BYTES);
    }
    position = end;
  }
  return { keptBytes: position, keptEvents: events, tornBytes: 0 };
}

function torn(kept: number, events: number, size: number, reason: string): StreamedLogScan {
  return { keptBytes: kept, keptEvents: events, tornBytes: size - kept, tornReason: reason };
}

/** The events of the first `keptBytes` bytes of a streamed log, decoded as they are read. */
export function* streamedLogEvents(fd: number, keptBytes: number): Generator<LoggedEvent> {
  const decoder = new LogStreamDecoder();
  const header = Buffer.alloc(FRAME_HEADER_BYTES);
  let position = LOG_STREAM_MAGIC.length;
  while (position < keptBytes) {
    readSync(fd, header, 0, FRAME_HEADER_BYTES, position);
    const length = header.readUInt32LE(1);
    const payload = Buffer.allocUnsafe(length);
    if (readSync(fd, payload, 0, length, position + FRAME_HEADER_BYTES) < length)
      throw new LogFormatError(`byte ${position}: the file is shorter than its frames say`);
    try {
      yield* decoder.frame(header[0] as number, payload);
    } catch (error) {
      if (error instanceof LogFormatError)
        throw new LogFormatError(`byte ${position}: ${error.message}`);
      throw error;
    }
    position += FRAME_HEADER_BYTES + length;
  }
}
