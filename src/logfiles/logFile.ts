/**
 * Log files on disk, read as streams. Three formats: a streamed log (binary frames, see
 * streamedLogFile.ts), a plain log (JSON Lines, one event a line, as
 * `run --log` and `_sim/snapshot` write it) and a state file (`serve --state-file`): a first line
 * naming the format, then each request's events followed by a commit line that carries the number
 * of events so far and the CRC-32 of the request's lines. Reading keeps whole committed requests
 * only, says what it dropped, and refuses a file damaged before its last commit, naming the line.
 */
import { closeSync, fstatSync, openSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { LogFormatError } from '../engine/errors.js';
import { EnvelopeCheck } from '../engine/jsonLines.js';
import type { LoggedEvent } from '../engine/loggedEvent.js';
import { lineChunks } from './lineChunks.js';
import { isStreamedLog, scanStreamedLog, streamedLogEvents } from './streamedLogFile.js';

/** The first line of a state file. */
export const STATE_FILE_FIRST_LINE = '{"computesim":"state-file","version":1}';

/** The line that commits a request's events: the events in the file so far and their lines' CRC-32. */
export function commitLine(events: number, crc: number): string {
  return `{"commit":${events},"crc32":${crc}}`;
}

/** What lay after the last whole request (or line) of a file, and was left out. */
export interface DroppedTail {
  /** First line left out (0 for a streamed log, which has no lines: `reason` says the byte). */
  readonly fromLine: number;
  readonly toLine: number;
  /** Event lines left out, the incomplete one included. */
  readonly events: number;
  readonly bytes: number;
  readonly reason: string;
}

/** What a first pass over a log file found. */
export interface LogFileScan {
  /**
   * `empty`: no whole event (a new file, only blank lines, a torn first line, or a state file with
   * its first line and no committed request). `stream`: a streamed log (`LogFileSink`).
   */
  readonly kind: 'state-file' | 'log' | 'stream' | 'empty';
  /** The file's size in bytes. */
  readonly size: number;
  /** The bytes that hold whole committed requests (state file) or whole events (log). */
  readonly keptBytes: number;
  /** Events in the kept bytes. */
  readonly keptEvents: number;
  /**
   * The kept bytes end with a whole commit line that lacks only its newline (a state file cut by
   * one byte after the server wrote it): its request is whole, and the newline is to be added.
   */
  readonly missingNewline?: boolean;
  /** What follows the kept bytes, when something does. */
  readonly dropped?: DroppedTail;
}

const FIRST_LINE = Buffer.from(STATE_FILE_FIRST_LINE);
const FIRST_LINE_CRLF = Buffer.from(`${STATE_FILE_FIRST_LINE}\r`);
const COMMIT_PREFIX = Buffer.from('{"commit":');
const COMMIT_TEXT = '{"commit":';
const NEWLINE = 0x0a;

/** An open log file: scanned once, then its kept events can be read as a stream. */
export class LogFile {
  private constructor(
    readonly path: string,
    readonly scan: LogFileScan,
    /** A streamed log (binary frames) rather than JSON Lines. */
    readonly streamed = false,
  ) {}

  /**
   * Opens and scans `path`. Throws `LogFormatError` naming the line for a state file damaged or
   * edited before its last commit, and the file system's error for a file that cannot be read.
   */
  static open(path: string): LogFile {
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      if (isStreamedLog(fd, size)) return new LogFile(path, streamedScanOf(fd, size), true);
      return new LogFile(path, scanLogFile(fd, size));
    } finally {
      closeSync(fd);
    }
  }

  /**
   * The kept events, decoded and checked (type, whole non-decreasing `at`, `seq` in order) as they
   * stream by. Throws `LogFormatError` naming the line of the first bad one.
   */
  *events(): Generator<LoggedEvent> {
    if (this.streamed) {
      const fd = openSync(this.path, 'r');
      try {
        yield* streamedLogEvents(fd, this.scan.keptBytes);
      } finally {
        closeSync(fd);
      }
      return;
    }
    const stateFile = this.scan.kind === 'state-file';
    const fd = openSync(this.path, 'r');
    try {
      const envelope = new EnvelopeCheck();
      let lineNo = 0;
      let blank: number | undefined;
      for (const chunk of lineChunks(fd, this.scan.keptBytes)) {
        const lines = decodeLines(chunk.data, lineNo);
        if (lines[lines.length - 1] === '') lines.pop();
        for (const text of lines) {
          lineNo++;
          if (stateFile && (lineNo === 1 || text.startsWith(COMMIT_TEXT))) continue;
          if (text.trim() === '') {
            blank ??= lineNo;
            continue;
          }
          if (blank !== undefined) throw new LogFormatError('empty line inside the log', blank);
          let value: unknown;
          try {
            value = JSON.parse(text);
          } catch (error) {
            const reason = error instanceof Error ? error.message : String(error);
            throw new LogFormatError(`not JSON (${reason})`, lineNo);
          }
          yield envelope.next(value, lineNo);
        }
      }
    } finally {
      closeSync(fd);
    }
  }
}

/** A streamed log's scan in the terms of any log file (its "lines" count frames' bytes: none). */
function streamedScanOf(fd: number, size: number): LogFileScan {
  const scan = scanStreamedLog(fd, size);
  const base = {
    kind: scan.keptEvents === 0 ? ('empty' as const) : ('stream' as const),
    size,
    keptBytes: scan.keptBytes,
    keptEvents: scan.keptEvents,
  };
  if (scan.tornReason === undefined) return base;
  return {
    ...base,
    dropped: {
      fromLine: 0,
      toLine: 0,
      events: 0,
      bytes: scan.tornBytes,
      reason: `${scan.tornReason}, after byte ${scan.keptBytes}`,
    },
  };
}

/** The lines of a chunk as strings; a chunk too long for one string is a line too long to be an event. */
function decodeLines(data: Buffer, linesBefore: number): string[] {
  let text: string;
  try {
    text = data.toString('utf8');
  } catch {
    throw new LogFormatError(
      `a line of ${Math.round(data.length / 2 ** 20)} MiB is too long to be an event`,
      linesBefore + 1,
    );
  }
  return text.split('\n');
}

/** The first pass: finds the kept part and what follows it, reading every byte once. */
function scanLogFile(fd: number, size: number): LogFileScan {
  const lines = linesOf(fd, size);
  const first = lines.next();
  if (first.done === true) return { kind: 'empty', size, keptBytes: 0, keptEvents: 0 };
  const line = first.value;
  if (line.complete && line.bytes().equals(FIRST_LINE_CRLF))
    throw new LogFormatError(
      "the file has Windows line endings (CRLF), as an editor or a copy may leave them: convert it back with sed -i 's/\\r$//' FILE",
      1,
    );
  if (line.complete && line.bytes().equals(FIRST_LINE)) {
    line.restartCrc();
    return scanStateFile(lines, size);
  }
  if (!line.complete && FIRST_LINE.subarray(0, line.end).equals(line.bytes()))
    return {
      kind: 'empty',
      size,
      keptBytes: 0,
      keptEvents: 0,
      dropped: { fromLine: 1, toLine: 1, events: 0, bytes: size, reason: 'the first line is torn' },
    };
  return scanPlainLog(line, lines, size);
}

/**
 * A cursor over the lines of a file (one object, moved along: no allocation per line). `crc`
 * takes the CRC-32 of the bytes between a mark and the current line's start in few native calls.
 */
class LineCursor {
  data: Buffer = Buffer.alloc(0);
  dataStart = 0;
  /** Offset of the line in `data`, and just past its newline (or its end). */
  from = 0;
  to = 0;
  line = 0;
  complete = true;
  /** Where the running CRC has got to in `data`. */
  #crcFrom = 0;
  #crc = 0;

  get end(): number {
    return this.dataStart + this.to;
  }

  bytes(): Buffer {
    return this.data.subarray(this.from, this.complete ? this.to - 1 : this.to);
  }

  startsWith(prefix: Buffer): boolean {
    if (this.to - this.from <= prefix.length) return false;
    for (let i = 0; i < prefix.length; i++)
      if (this.data[this.from + i] !== prefix[i]) return false;
    return true;
  }

  /** Whether the line holds only whitespace (stops at the first other byte: cheap for events). */
  blank(): boolean {
    for (let i = this.from; i < this.to; i++) {
      const byte = this.data[i];
      if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d && byte !== NEWLINE) return false;
    }
    return true;
  }

  /** Starts a new checksum after the current line. */
  restartCrc(): void {
    this.#crc = 0;
    this.#crcFrom = this.to;
  }

  /** The checksum of everything from the last restart up to the current line's start. */
  crcBefore(): number {
    this.#crc = crc32(this.data.subarray(this.#crcFrom, this.from), this.#crc);
    this.#crcFrom = this.from;
    return this.#crc;
  }

  /** Moves to a new chunk, folding the rest of the old one into the running checksum. */
  enter(data: Buffer, dataStart: number): void {
    this.#crc = crc32(this.data.subarray(this.#crcFrom), this.#crc);
    this.data = data;
    this.dataStart = dataStart;
    this.from = 0;
    this.to = 0;
    this.#crcFrom = 0;
  }
}

function* linesOf(fd: number, size: number): Generator<LineCursor> {
  const cursor = new LineCursor();
  for (const chunk of lineChunks(fd, size)) {
    cursor.enter(chunk.data, chunk.start);
    while (cursor.to < chunk.data.length) {
      cursor.from = cursor.to;
      const newline = chunk.data.indexOf(NEWLINE, cursor.from);
      cursor.complete = newline !== -1;
      cursor.to = newline === -1 ? chunk.data.length : newline + 1;
      cursor.line++;
      yield cursor;
    }
  }
}

function scanStateFile(lines: Generator<LineCursor>, size: number): LogFileScan {
  let keptBytes = FIRST_LINE.length + 1;
  let keptLine = 1;
  let keptEvents = 0;
  let batchEvents = 0;
  let lastLine = 1;
  let torn = false;
  let missingNewline = false;
  /** Blank lines not yet followed by an event line: a tail of only these is not a request. */
  let blankLines = 0;
  for (const line of lines) {
    lastLine = line.line;
    if (!line.startsWith(COMMIT_PREFIX)) {
      if (line.blank() && line.complete) {
        blankLines++;
        continue;
      }
      batchEvents += 1 + blankLines;
      blankLines = 0;
      if (!line.complete) torn = true;
      continue;
    }
    const crc = line.crcBefore();
    const commit = parseCommit(line.bytes());
    const expected = keptEvents + batchEvents;
    if (!line.complete && commit === undefined) {
      // A commit line cut short cannot vouch for its request's lines: cut off like any unfinished
      // request. One that reads whole lacks only its newline and is checked like any other.
      torn = true;
      break;
    }
    if (commit === undefined || commit.events !== expected || commit.crc32 !== crc)
      throw new LogFormatError(
        `${lineRange(keptLine + 1, line.line - 1)} do not match the commit line after them ` +
          `(${commit === undefined ? 'unreadable' : commit.events !== expected ? `it counts ${commit.events} events where the file has ${expected}` : 'checksum differs'}): ` +
          'the file was edited or damaged there. See docs/durability.md, "Recovering by hand".',
        line.line,
      );
    keptEvents = expected;
    keptBytes = line.end;
    missingNewline = !line.complete;
    blankLines = 0;
    keptLine = line.line;
    batchEvents = 0;
    line.restartCrc();
  }
  const kind = keptEvents === 0 ? 'empty' : 'state-file';
  if (keptBytes === size)
    return { kind, size, keptBytes, keptEvents, ...(missingNewline ? { missingNewline } : {}) };
  return {
    kind,
    size,
    keptBytes,
    keptEvents,
    dropped: {
      fromLine: keptLine + 1,
      toLine: lastLine,
      events: batchEvents,
      bytes: size - keptBytes,
      reason:
        batchEvents === 0
          ? 'blank lines after the last commit'
          : `the events of an unfinished request${torn ? ' (its last line torn)' : ''}, with no whole commit line to check them against`,
    },
  };
}

function scanPlainLog(first: LineCursor, rest: Generator<LineCursor>, size: number): LogFileScan {
  let keptBytes = 0;
  let keptEvents = 0;
  let lastLine = 0;
  for (let line: LineCursor | undefined = first; line !== undefined; line = nextOf(rest)) {
    lastLine = line.line;
    const blank = line.blank();
    if (!line.complete && !blank && !parses(line.bytes()))
      return {
        kind: keptEvents === 0 ? 'empty' : 'log',
        size,
        keptBytes,
        keptEvents,
        dropped: {
          fromLine: line.line,
          toLine: line.line,
          events: 1,
          bytes: size - keptBytes,
          reason: 'incomplete last line (torn write)',
        },
      };
    keptBytes = line.end;
    if (!blank) keptEvents++;
  }
  if (keptEvents > 0) return { kind: 'log', size, keptBytes, keptEvents };
  return {
    kind: 'empty',
    size,
    keptBytes: 0,
    keptEvents: 0,
    ...(size === 0
      ? {}
      : {
          dropped: {
            fromLine: 1,
            toLine: lastLine,
            events: 0,
            bytes: size,
            reason: 'only blank lines',
          },
        }),
  };
}

function nextOf(lines: Generator<LineCursor>): LineCursor | undefined {
  const next = lines.next();
  return next.done === true ? undefined : next.value;
}

function parseCommit(bytes: Buffer): { events: number; crc32: number } | undefined {
  try {
    const value = JSON.parse(bytes.toString('utf8')) as { commit?: unknown; crc32?: unknown };
    if (Number.isSafeInteger(value.commit) && Number.isSafeInteger(value.crc32))
      return { events: value.commit as number, crc32: value.crc32 as number };
  } catch {
    // unreadable: reported by the caller
  }
  return undefined;
}

function parses(bytes: Buffer): boolean {
  try {
    JSON.parse(bytes.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

function lineRange(from: number, to: number): string {
  return from === to ? `line ${from}` : from > to ? 'nothing' : `lines ${from}-${to}`;
}
