/**
 * Scale-to-zero timing: the effective timeout, and the back-off after suspends that gave up.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SCALE_TO_ZERO_MAX_BACKOFF_MS,
  scaleToZeroDelayMs,
} from '../../src/domain/suspendTimeout.js';

const FIVE_MINUTES = 300_000;

describe('scale to zero after suspends that gave up', () => {
  it('waits the timeout when no suspend failed', () => {
    expect(scaleToZeroDelayMs(FIVE_MINUTES)).toBe(FIVE_MINUTES);
    expect(scaleToZeroDelayMs(FIVE_MINUTES, 0)).toBe(FIVE_MINUTES);
  });

  it('doubles the wait for each failure, up to a day', () => {
    expect([1, 2, 3].map((n) => scaleToZeroDelayMs(FIVE_MINUTES, n))).toEqual([
      600_000, 1_200_000, 2_400_000,
    ]);
    expect(scaleToZeroDelayMs(FIVE_MINUTES, 9)).toBe(SCALE_TO_ZERO_MAX_BACKOFF_MS);
    expect(scaleToZeroDelayMs(FIVE_MINUTES, 1_000)).toBe(SCALE_TO_ZERO_MAX_BACKOFF_MS);
  });

  it('never waits less than the timeout, nor longer than a day past a timeout under a day', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 60, max: 604_800 }),
        fc.nat({ max: 10_000 }),
        (seconds, failures) => {
          const timeout = seconds * 1_000;
          const delay = scaleToZeroDelayMs(timeout, failures);
          expect(delay).toBeGreaterThanOrEqual(timeout);
          expect(delay).toBeLessThanOrEqual(Math.max(timeout, SCALE_TO_ZERO_MAX_BACKOFF_MS));
          expect(scaleToZeroDelayMs(timeout, failures + 1)).toBeGreaterThanOrEqual(delay);
        },
      ),
    );
  });
});
