import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatInstant, parseInstant } from '../../src/index.js';
import { tryParseInstant } from '../../src/entries/model.js';

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

  it('formats every instant as the ISO string of a Date does, in any order of days', () => {
    const viaDate = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
    const first = Date.parse('0000-01-01T00:00:00Z');
    const last = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    const instant = fc.oneof(
      fc.integer({ min: first, max: last }),
      fc.integer({ min: 0, max: 7_258_118_400_000 }).map((ms) => ms - (ms % 1000)),
      fc.constantFrom(first, last, -1, 0, 86_399_999, 86_400_000, first - 1, last + 1),
      fc.double({ min: -1e15, max: 1e15, noNaN: true }),
    );
    // Instants a few days apart, in any order: days that share a memo slot if it were keyed wrong.
    const neighbours = fc
      .tuple(
        fc.integer({ min: 0, max: 7_258_118_400_000 }),
        fc.array(fc.integer({ min: -5 * 86_400_000, max: 5 * 86_400_000 }), { maxLength: 8 }),
      )
      .map(([base, offsets]) => offsets.map((offset) => base + offset));
    fc.assert(
      fc.property(fc.array(instant, { minLength: 1, maxLength: 8 }), neighbours, (some, near) => {
        for (const ms of [...some, ...near]) expect(formatInstant(ms)).toBe(viaDate(ms));
      }),
      { numRuns: 300 },
    );
  });
});
