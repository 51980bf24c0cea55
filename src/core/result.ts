/**
 * Result: expected refusals as values. `decide` returns one; `throw` is kept for bugs.
 */

/** Either a value or an error, never both. */
export type Result<T, E> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

/** Wraps a success value. */
export function ok<T>(value: T): Result<T, never> {
  return { ok: true, value };
}

/** Wraps an expected failure. */
export function err<E>(error: E): Result<never, E> {
  return { ok: false, error };
}
