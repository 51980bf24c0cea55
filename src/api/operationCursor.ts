/**
 * The cursor of operation listings: an ISO 8601 timestamp with six fractional digits, the sort key
 * (microseconds) of the last operation returned. Sort keys are unique per project, so paging never
 * skips or repeats an operation even when many share one `created_at`.
 */
import { err, ok, type Result } from '../core/result.js';
import { reject, type Rejection } from '../domain/rejection.js';

/** Formats a sort key (microseconds since the epoch) as a cursor. */
export function formatCursor(sortKey: number): string {
  const ms = Math.floor(sortKey / 1000);
  const micros = String(sortKey % 1_000_000).padStart(6, '0');
  return `${new Date(ms).toISOString().slice(0, 19)}.${micros}Z`;
}

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?Z$/;

/** Parses a cursor back into a sort key; a 400 for anything else. */
export function parseCursor(text: string): Result<number, Rejection> {
  const match = CURSOR.exec(text);
  const seconds = match === null ? Number.NaN : Date.parse(`${match[1] as string}Z`);
  if (match === null || Number.isNaN(seconds)) {
    return err(
      reject(
        'invalid_input',
        `cursor ${JSON.stringify(text)} is not a cursor from a previous response (an ISO 8601 timestamp)`,
      ),
    );
  }
  return ok(seconds * 1000 + Number((match[2] ?? '').padEnd(6, '0')));
}
