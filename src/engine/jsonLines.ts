/**
 * Reading a log from JSON Lines. A torn last line (a crash mid-write) is reported and dropped; any
 * other bad line makes the whole read fail, so a log is never half-applied.
 */
import { LogFormatError } from './errors.js';
import type { LoggedEvent } from './loggedEvent.js';

/** What reading a JSON Lines log produced. */
export interface ParsedLog {
  readonly events: LoggedEvent[];
  /** Set when the last line was incomplete and was ignored. */
  readonly tornLastLine?: { readonly line: number; readonly reason: string };
}

/**
 * Parses a JSON Lines log and checks its envelope: every line an object with a string `type`, a whole
 * `at` that never decreases, and `seq` equal to its position. Throws `LogFormatError` otherwise.
 */
export function parseJsonLines(text: string): ParsedLog {
  const lines = text.split('\n');
  const endsWithNewline = text.endsWith('\n');
  if (endsWithNewline) lines.pop();
  const events: LoggedEvent[] = [];
  const envelope = new EnvelopeCheck();
  let tornLastLine: ParsedLog['tornLastLine'];
  for (let i = 0; i < lines.length; i++) {
    const raw = (lines[i] as string).replace(/\r$/, '');
    const lineNo = i + 1;
    const isLast = i === lines.length - 1;
    if (raw.trim() === '') {
      if (isLast) continue;
      throw new LogFormatError('empty line inside the log', lineNo);
    }
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (isLast && !endsWithNewline) {
        tornLastLine = { line: lineNo, reason: `incomplete last line ignored (${reason})` };
        break;
      }
      throw new LogFormatError(`not JSON (${reason})`, lineNo);
    }
    events.push(envelope.next(value, lineNo));
  }
  return tornLastLine === undefined ? { events } : { events, tornLastLine };
}

/**
 * Checks the envelope of decoded events one at a time, in log order: every event an object with a
 * string `type`, a whole `at` that never decreases, and `seq` equal to its position. Keeps only the
 * count and the last time, so a log of any length can be checked as it streams by.
 */
export class EnvelopeCheck {
  #count = 0;
  #lastAt = -Infinity;

  /** How many events have passed. */
  get count(): number {
    return this.#count;
  }

  /** Checks the next event; throws `LogFormatError` (naming `lineNo`, if given) when it is wrong. */
  next(value: unknown, lineNo?: number): LoggedEvent {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new LogFormatError('an event must be a JSON object', lineNo);
    }
    const event = value as Partial<LoggedEvent>;
    if (typeof event.type !== 'string' || event.type === '') {
      throw new LogFormatError('event has no "type"', lineNo);
    }
    if (typeof event.at !== 'number' || !Number.isSafeInteger(event.at)) {
      throw new LogFormatError(`event ${event.type} has no whole "at" (epoch ms)`, lineNo);
    }
    if (event.seq !== this.#count) {
      throw new LogFormatError(
        `event ${event.type} has seq ${String(event.seq)} where ${this.#count} was expected`,
        lineNo,
      );
    }
    if (event.at < this.#lastAt) {
      throw new LogFormatError(
        `event ${event.type} at ${event.at} is earlier than the event before it`,
        lineNo,
      );
    }
    this.#count++;
    this.#lastAt = event.at;
    return event as LoggedEvent;
  }
}
