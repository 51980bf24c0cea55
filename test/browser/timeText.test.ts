/** How the page writes virtual times: the clock, time since the start, a feed line's time. */
import { describe, expect, it } from 'vitest';
import { clockText, lineTime, sinceStart } from '../../src/browser/timeText.js';

const START = Date.UTC(2026, 0, 5, 9, 0, 0);

describe('time text', () => {
  it('counts time since the start in hours, minutes and seconds, with days when there are some', () => {
    expect(sinceStart(0)).toBe('+00:00:00');
    expect(sinceStart(59_999)).toBe('+00:00:59');
    expect(sinceStart(((23 * 60 + 59) * 60 + 59) * 1000)).toBe('+23:59:59');
    expect(sinceStart(((26 * 60 + 3) * 60 + 4) * 1000)).toBe('+1d 02:03:04');
    expect(sinceStart(400 * 86_400_000)).toBe('+400d 00:00:00');
  });

  it('writes the clock in UTC, with milliseconds only when there are some', () => {
    expect(clockText(START)).toBe('2026-01-05 09:00:00Z');
    expect(clockText(START + 250)).toBe('2026-01-05 09:00:00.250Z');
  });

  it("times a feed line by the time of day until the run's start is known, then since it", () => {
    const at = START + 90_000;
    expect(lineTime(at, undefined)).toBe('09:01:30');
    expect(lineTime(at, START)).toBe('+00:01:30');
  });
});
