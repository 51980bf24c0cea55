/**
 * Scenario expectations: compare an actual value with an expected one (deeply) or a predicate, and
 * say both in plain words when they differ.
 */
import { isDeepStrictEqual } from 'node:util';

/** An expectation of a scenario did not hold. */
export class ExpectationError extends Error {
  override name = 'ExpectationError';
}

/** Whether `actual` meets `expected` (a predicate, or a value compared deeply). */
export function meets<T>(actual: T, expected: T | ((actual: T) => boolean)): boolean {
  return typeof expected === 'function'
    ? (expected as (actual: T) => boolean)(actual)
    : isDeepStrictEqual(actual, expected);
}

/** A value as a failure message shows it: JSON where possible, short. */
export function show(value: unknown): string {
  if (typeof value === 'function') return 'a value the predicate accepts';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
