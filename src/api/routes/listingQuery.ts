/**
 * Query parameters listings share: the page size (`limit`, 1..400, default 10) and `search` (a
 * case-insensitive substring of a name or an id).
 */
import { err, ok, type Result } from '../../core/result.js';
import { reject, type Rejection } from '../../domain/rejection.js';

/** The `limit` of a project listing, or a 400 naming what was sent. */
export function pageLimit(query: URLSearchParams): Result<number, Rejection> {
  const text = query.get('limit');
  const limit = text === null ? 10 : Number(text);
  if (!/^\d+$/.test(text ?? '1') || limit < 1 || limit > 400)
    return err(
      reject(
        'invalid_input',
        `limit must be a whole number from 1 to 400, got ${JSON.stringify(text)}`,
      ),
    );
  return ok(limit);
}

/** True when there is no search, or one of `fields` contains it (ignoring case). */
export function matchesSearch(search: string | null, ...fields: readonly string[]): boolean {
  if (search === null || search === '') return true;
  const needle = search.toLowerCase();
  return fields.some((field) => field.toLowerCase().includes(needle));
}
