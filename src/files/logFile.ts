/**
 * Log files on disk, read as streams. Two formats: a plain log (JSON Lines, one event a line, as
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
import { fileLines, type FileLine } from './fileLines.js';

/** The first line of a state file. */
export const STATE_FILE_FIRST_LINE = '{"computesim":"state-file","version":1}';

/** The line that commits a request's events: the events in the file so far and their lines' CRC-32. */
export function commitLine(events: number, crc: number): string {
  return `{"commit":${events},"crc32":${crc}}`;
}

/** What lay after the last whole request (or line) of a file, and was left out. */
export interface DroppedTail {
  readonly fromLine: number;
  readonly toLine: number;
  /** Event lines left out, the incomplete one included. */
  readonly events: number;
  readonly bytes: number;
  readonly reason: string;
}

/** What a first pass over a log file found. */
export interface LogFileScan {
  /** `empty`: no event at all (a new file, or only blank lines or a torn first line). */
  readonly kind: 'state-file' | 'log' | 'empty';
  /** The file's size in bytes. */
  readonly size: number;
  /** The bytes that hold whole committed requests (state file) or whole events (log). */
  readonly keptBytes: number;
  /** Events in the kept bytes. */
  readonly keptEvents: number;
  /** The kept part ends with a whole commit line that lacks only its newline (added on repair). */
  readonly missingNewline?: boolean;
  /** What follows the kept bytes, when something does. */
  readonly dropped?: DroppedTail;
}

const FIRST_LINE = Buffer.from(STATE_FILE_FIRST_LINE);
const COMMIT_PREFIX = Buffer.from('{"commit":');
const NEWLINE = Buffer.from('\n');

/** An open log file: scanned once, then its kept events can be read as a stream. */
export class LogFile {
  private constructor(
    readonly path: string,
    readonly scan: LogFileScan,
  ) {}

  /**
   * Opens and scans `path` (a missing file is `empty`). Throws `LogFormatError` naming the line for
   * a state file damaged or edited before its last commit.
   */
  static open(path: string): LogFile {
    const fd = openSync(path, 'r');
    try {
      return new LogFile(path, scanLogFile(fd, fstatSync(fd).size));
    } finally {
      closeSync(fd);
    }
  }

  /**
   * The kept events, decoded and checked (type, whole non-decreasing `at`, `seq` in order) as they
   * stream by. Throws `LogFormatError` naming the line of the first bad one.
   */
  *events(): Generator<LoggedEvent> {
    const fd = openSync(this.path, 'r');
    try {
      const envelope = new EnvelopeCheck();
      let blank: number | undefined;
      for (const line of fileLines(fd, this.scan.keptBytes)) {
        if (this.scan.kind === 'state-file' && (line.line === 1 || isCommit(line))) continue;
        if (isBlank(line.bytes)) {
          blank ??= line.line;
          continue;
        }
        if (blank !== undefined) throw new LogFormatError('empty line inside the log', blank);
        let value: unknown;
        try {
          value = JSON.parse(line.bytes.toString('utf8'));
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          throw new LogFormatError(`not JSON (${reason})`, line.line);
        }
        yield envelope.next(value, line.line);
      }
    } finally {
      closeSync(fd);
    }
  }
}

/** The first pass: finds the kept part and what follows it, reading every byte once. */
export function scanLogFile(fd: number, size: number): LogFileScan {
  const lines = fileLines(fd, size);
  const first = lines.next();
  if (first.done === true) return { kind: 'empty', size, keptBytes: 0, keptEvents: 0 };
  if (first.value.complete && first.value.bytes.equals(FIRST_LINE))
    return scanStateFile(lines, first.value, size);
  if (
    !first.value.complete &&
    FIRST_LINE.subarray(0, first.value.bytes.length).equals(first.value.bytes)
  )
    return {
      kind: 'empty',
      size,
      keptBytes: 0,
      keptEvents: 0,
      dropped: { fromLine: 1, toLine: 1, events: 0, bytes: size, reason: 'the first line is torn' },
    };
  return scanPlainLog(lines, first.value, size);
}

function scanStateFile(lines: Generator<FileLine>, first: FileLine, size: number): LogFileScan {
  let keptBytes = first.end;
  let keptLine = first.line;
  let keptEvents = 0;
  let batch = { crc: 0, events: 0 };
  let lastLine = first.line;
  let torn = false;
  let missingNewline = false;
  for (const line of lines) {
    lastLine = line.line;
    if (!line.complete && !isCommit(line)) {
      torn = true;
      batch.events++;
      break;
    }
    if (!isCommit(line)) {
      batch = { crc: crc32(NEWLINE, crc32(line.bytes, batch.crc)), events: batch.events + 1 };
      continue;
    }
    const commit = parseCommit(line);
    const expected = keptEvents + batch.events;
    if (!line.complete) {
      // A last commit line whose newline never made it: whole if it reads and matches.
      if (commit === undefined || commit.events !== expected || commit.crc32 !== batch.crc) {
        torn = true;
        break;
      }
      missingNewline = true;
    } else if (commit === undefined || commit.events !== expected || commit.crc32 !== batch.crc)
      throw new LogFormatError(
        `${linesOf(keptLine + 1, line.line - 1)} do not match the commit line after them ` +
          `(${commit === undefined ? 'unreadable' : commit.events !== expected ? `it counts ${commit.events} events where the file has ${expected}` : 'checksum differs'}): ` +
          'the file was edited or damaged there. See docs/durability.md, "Recovering by hand".',
        line.line,
      );
    keptEvents = expected;
    keptBytes = line.end;
    keptLine = line.line;
    batch = { crc: 0, events: 0 };
  }
  const newline = missingNewline ? { missingNewline } : {};
  if (keptBytes === size) return { kind: 'state-file', size, keptBytes, keptEvents, ...newline };
  return {
    kind: 'state-file',
    size,
    keptBytes,
    keptEvents,
    ...newline,
    dropped: {
      fromLine: keptLine + 1,
      toLine: lastLine,
      events: batch.events,
      bytes: size - keptBytes,
      reason:
        batch.events === 0
          ? 'blank lines after the last commit'
          : `the events of an unfinished request${torn ? ' (its last line torn)' : ''}, never acknowledged`,
    },
  };
}

function scanPlainLog(lines: Generator<FileLine>, first: FileLine, size: number): LogFileScan {
  let keptBytes = 0;
  let keptEvents = 0;
  let lastLine = 0;
  for (const line of withFirst(first, lines)) {
    lastLine = line.line;
    const blank = isBlank(line.bytes);
    if (!line.complete && !blank && !parses(line.bytes))
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

function* withFirst(first: FileLine, rest: Generator<FileLine>): Generator<FileLine> {
  yield first;
  for (let next = rest.next(); next.done !== true; next = rest.next()) yield next.value;
}

/** Whether a line holds only whitespace (stops at the first other byte: cheap for events). */
function isBlank(bytes: Buffer): boolean {
  for (const byte of bytes) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  return true;
}

function isCommit(line: FileLine): boolean {
  return (
    line.bytes.length > COMMIT_PREFIX.length &&
    line.bytes.subarray(0, COMMIT_PREFIX.length).equals(COMMIT_PREFIX)
  );
}

function parseCommit(line: FileLine): { events: number; crc32: number } | undefined {
  try {
    const value = JSON.parse(line.bytes.toString('utf8')) as { commit?: unknown; crc32?: unknown };
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

function linesOf(from: number, to: number): string {
  return from === to ? `line ${from}` : from > to ? 'nothing' : `lines ${from}-${to}`;
}
