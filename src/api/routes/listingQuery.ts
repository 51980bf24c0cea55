/**
 * Query parameters listings share: the page size (`limit`, 1..400, default 10), `search` (a
 * case-insensitive substring of a name or an id), and a `cursor` naming the last id of the page
 * before.
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

/**
 * The page of `all` that follows the item whose id is `cursor` (from the start without one), at most
 * `limit` long; a cursor no earlier page gave is a 400.
 */
export function pageAfter<T extends { readonly id: string }>(
  all: readonly T[],
  cursor: string | undefined,
  limit: number,
): Result<readonly T[], Rejection> {
  const from = cursor === undefined ? 0 : all.findIndex((item) => item.id === cursor) + 1;
  if (cursor !== undefined && from === 0)
    return err(
      reject(
        'invalid_input',
        `cursor ${JSON.stringify(cursor)} is not a project id from a previous page`,
      ),
    );
  return ok(all.slice(from, from + limit));
}

/** A boolean query parameter (`true` or `false`; `fallback` when absent), or a 400 naming it. */
export function flag(
  query: URLSearchParams,
  name: string,
  fallback = false,
): Result<boolean, Rejection> {
  const text = query.get(name);
  if (text === null) return ok(fallback);
  if (text === 'true' || text === 'false') return ok(text === 'true');
  return err(reject('invalid_input', `${name} must be true or false, got ${JSON.stringify(text)}`));
}
