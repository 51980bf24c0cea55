import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatInstant, parseInstant, tryParseInstant } from '../../src/index.js';

describe('instants', () => {
  it('parses ISO 8601 with a zone and formats UTC without empty milliseconds', () => {
    const ms = parseInstant('2026-01-05T00:00:05Z');
    expect(formatInstant(ms)).toBe('2026-01-05T00:00:05Z');
    expect(formatInstant(ms + 250)).toBe('2026-01-05T00:00:05.250Z');
    expect(parseInstant('2026-01-05T02:00:05+02:00')).toBe(ms);
  });

  it.each(['2026-01-05', '2026-01-05T00:00:00', 'yesterday', '2026-13-05T00:00:00Z', ''])(
    'rejects %j with a clear message',
    (input) => {
      const result = tryParseInstant(input);
      expect(result.ok).toBe(false);
      expect(() => parseInstant(input)).toThrow(/Invalid instant/);
    },
  );

  it('round-trips every millisecond instant between 1970 and 2200', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 7_258_118_400_000 }), (ms) => {
        expect(parseInstant(formatInstant(ms))).toBe(ms);
      }),
    );
  });
});
