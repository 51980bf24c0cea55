/**
 * Instants at the edges: ISO 8601 UTC strings in, ISO 8601 UTC strings out. Inside the engine an
 * instant is an integer number of epoch milliseconds.
 */
import { err, ok, type Result } from './result.js';
import { DAY_MS } from './duration.js';

/**
 * The last instant a simulation can reach: the end of year 9999, the last one ISO 8601 writes with
 * four digits (JavaScript dates go further, but could not be read back as instants).
 */
export const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** The first instant ISO 8601 writes with four digits (year 0000). */
const FIRST_INSTANT = Date.parse('0000-01-01T00:00:00Z');

/** An instant as users write it: epoch milliseconds or an ISO 8601 string with a zone. */
export type Instant = number | string;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** Parses an instant without throwing; the error is a one-line message for a user. */
export function tryParseInstant(input: Instant): Result<number, string> {
  if (typeof input === 'number') {
    if (!Number.isSafeInteger(input))
      return err(`Invalid instant ${String(input)}: expected whole epoch milliseconds`);
    if (input > LAST_INSTANT || input < FIRST_INSTANT)
      return err(`Invalid instant ${String(input)}: outside years 0000-9999`);
    return ok(input);
  }
  if (typeof input !== 'string' || !ISO.test(input.trim())) {
    return err(
      `Invalid instant ${JSON.stringify(input)}: expected ISO 8601 with a zone, like '2026-01-05T00:00:00Z'`,
    );
  }
  const ms = Date.parse(input.trim());
  if (Number.isNaN(ms)) return err(`Invalid instant ${JSON.stringify(input)}: not a real date`);
  if (ms > LAST_INSTANT || ms < FIRST_INSTANT)
    return err(`Invalid instant ${JSON.stringify(input)}: outside years 0000-9999 UTC`);
  return ok(ms);
}

/** Parses an instant, throwing a `RangeError` with a clear message on bad input. */
export function parseInstant(input: Instant): number {
  const result = tryParseInstant(input);
  if (!result.ok) throw new RangeError(result.error);
  return result.value;
}

/** `00` to `59`. */
const TWO_DIGITS: readonly string[] = Array.from({ length: 60 }, (_, n) =>
  String(n).padStart(2, '0'),
);
/** The `YYYY-MM-DDT` of days `formatInstant` wrote (by epoch day): a pure memo, emptied when full. */
const DAY_PREFIXES = new Map<number, string>();
const MAX_DAY_PREFIXES = 1024;

/** Formats epoch milliseconds as ISO 8601 UTC; whole seconds drop the `.000`. */
export function formatInstant(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms < FIRST_INSTANT || ms > LAST_INSTANT) return viaDate(ms);
  // Response bodies format many instants of the same day: the date part is written once a day and
  // the time of day by arithmetic, a few times faster than a Date and its ISO string each time.
  const day = Math.floor(ms / DAY_MS);
  let prefix = DAY_PREFIXES.get(day);
  if (prefix === undefined) {
    if (DAY_PREFIXES.size >= MAX_DAY_PREFIXES) DAY_PREFIXES.clear();
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    DAY_PREFIXES.set(day, prefix);
  }
  let rest = ms - day * DAY_MS;
  const millis = rest % 1000;
  rest = (rest - millis) / 1000;
  const seconds = rest % 60;
  rest = (rest - seconds) / 60;
  const minutes = rest % 60;
  const time = `${prefix}${TWO_DIGITS[(rest - minutes) / 60]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}`;
  if (millis === 0) return `${time}Z`;
  return `${time}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

/** `formatInstant` through a Date: for instants outside years 0000-9999 and fractional ms. */
function viaDate(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}
