/**
 * The hold model, the classic timer-queue benchmark: N live timers; each step pops the earliest and
 * schedules a replacement a random increment later. Increments come from one precomputed table so
 * every queue under test sees the same sequence and no random-number cost.
 */
import { RandomSource } from '../../src/engine/index.js';

/** Live timers in the standard runs. */
export const LIVE_TIMERS = 10_000;
/** Events (pop + push) in the standard runs. */
export const HOLD_EVENTS = 2_000_000;

const TABLE_SIZE = 1 << 16;

/** Whole-millisecond increments, exponential with a mean of 10 s, from a fixed seed. */
export const INCREMENTS: Float64Array = (() => {
  const random = RandomSource.fromSeed(20260105);
  const table = new Float64Array(TABLE_SIZE);
  for (let i = 0; i < TABLE_SIZE; i++) table[i] = 1 + Math.floor(random.exponential(10_000));
  return table;
})();

/** The increment for step `i`. */
export function increment(i: number): number {
  return INCREMENTS[i & (TABLE_SIZE - 1)] as number;
}
