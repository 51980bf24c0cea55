/**
 * Durations at the edges: `'250ms'`, `'5s'`, `'5m'`, `'2h'`, `'7d'`, `'1h30m'` or a number of
 * milliseconds. Inside the engine every duration is an integer number of milliseconds.
 */
import { err, ok, type Result } from './result.js';

/** A duration as users write it: integer milliseconds, or a string such as `'5m'` or `'1h30m'`. */
export type Duration = number | string;

/** Milliseconds in a minute. */
const MINUTE_MS = 60_000;
/** Milliseconds in an hour. */
export const HOUR_MS = 3_600_000;
/** Milliseconds in a day. */
export const DAY_MS = 86_400_000;

const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1_000,
  m: MINUTE_MS,
  h: HOUR_MS,
  d: DAY_MS,
  w: 7 * DAY_MS,
};

const WHOLE = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h|d|w))+$/;
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g;
const HINT =
  "expected milliseconds (a number) or a string like '250ms', '5s', '5m', '2h', '7d' or '1h30m'";

/** Parses a duration without throwing; the error is a one-line message for a user. */
export function tryParseDuration(input: Duration): Result<number, string> {
  if (typeof input === 'number') {
    if (!Number.isSafeInteger(input) || input < 0) {
      return err(`Invalid duration ${String(input)}: ${HINT}, whole and not negative`);
    }
    return ok(input);
  }
  if (typeof input !== 'string') return err(`Invalid duration: ${HINT}`);
  const text = input.trim();
  if (!WHOLE.test(text)) return err(`Invalid duration ${JSON.stringify(input)}: ${HINT}`);
  let total = 0;
  for (const [, amount, unit] of text.matchAll(PART)) {
    total += Number(amount) * (UNIT_MS[unit as string] as number);
  }
  const rounded = Math.round(total);
  if (Math.abs(rounded - total) > 1e-6) {
    return err(`Invalid duration ${JSON.stringify(input)}: it must resolve to whole milliseconds`);
  }
  if (!Number.isSafeInteger(rounded))
    return err(`Invalid duration ${JSON.stringify(input)}: too long`);
  return ok(rounded);
}

/** Parses a duration, throwing a `RangeError` with a clear message on bad input. */
export function parseDuration(input: Duration): number {
  const result = tryParseDuration(input);
  if (!result.ok) throw new RangeError(result.error);
  return result.value;
}

const FORMAT_UNITS: ReadonlyArray<readonly [string, number]> = [
  ['d', DAY_MS],
  ['h', HOUR_MS],
  ['m', MINUTE_MS],
  ['s', 1_000],
  ['ms', 1],
];

/** Formats milliseconds compactly, largest units first: `90_000` → `'1m30s'`, `0` → `'0ms'`. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0ms';
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(Math.round(ms));
  let out = '';
  for (const [unit, size] of FORMAT_UNITS) {
    const count = Math.floor(rest / size);
    if (count > 0) {
      out += `${count}${unit}`;
      rest -= count * size;
    }
  }
  return sign + out;
}
