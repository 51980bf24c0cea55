import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../src/index.js';
import { tryParseDuration } from '../../src/entries/model.js';

describe('durations', () => {
  it.each([
    ['250ms', 250],
    ['5s', 5_000],
    ['5m', 300_000],
    ['2h', 7_200_000],
    ['7d', 604_800_000],
    ['1w', 604_800_000],
    ['1h30m', 5_400_000],
    ['1.5s', 1_500],
    [' 10m ', 600_000],
    [0, 0],
    [1234, 1234],
  ] as const)('parses %j as %d ms', (input, expected) => {
    expect(parseDuration(input)).toBe(expected);
  });

  it.each(['', '5', '5x', 'm5', '-5m', '5 m', '1.0005s', 'five minutes', '1h-30m'])(
    'rejects %j with a message that says what is expected',
    (input) => {
      expect(() => parseDuration(input)).toThrow(/Invalid duration|whole milliseconds/);
      const result = tryParseDuration(input);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toContain(JSON.stringify(input));
    },
  );

  it.each([-1, 1.5, Number.NaN, Infinity])('rejects the number %d', (input) => {
    expect(() => parseDuration(input)).toThrow(RangeError);
  });

  it('formats compactly and parses back to the same milliseconds', () => {
    expect(formatDuration(90_000)).toBe('1m30s');
    expect(formatDuration(0)).toBe('0ms');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * 365 * 86_400_000 }), (ms) => {
        expect(parseDuration(formatDuration(ms))).toBe(ms);
      }),
    );
  });
});
