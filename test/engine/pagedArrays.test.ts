/**
 * Paged arrays: what is pushed reads back, across the first page's doublings and page boundaries,
 * one entry at a time or in runs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PagedFloat64, PagedUint8 } from '../../src/engine/pagedArrays.js';

describe('paged arrays', () => {
  it('read back every byte pushed, one at a time or in runs, past several pages', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5000 }), { maxLength: 60 }), (runs) => {
        const paged = new PagedUint8();
        const expected: number[] = [];
        runs.forEach((count, r) => {
          const source = Uint8Array.from({ length: count + 3 }, (_, i) => (i * 7 + r) & 255);
          if (r % 2 === 0) paged.pushAll(source, 3, count);
          else for (let i = 3; i < count + 3; i++) paged.push(source[i] as number);
          for (let i = 3; i < count + 3; i++) expected.push(source[i] as number);
        });
        expect(paged.length).toBe(expected.length);
        expect(Array.from({ length: paged.length }, (_, i) => paged.get(i))).toEqual(expected);
      }),
      { numRuns: 30 },
    );
  });

  it('start small and hold whole pages once past the first', () => {
    const floats = new PagedFloat64();
    expect(floats.bytes).toBe(0);
    floats.push(0.5);
    expect(floats.bytes).toBeLessThan(4096);
    for (let i = 1; i < 10_000; i++) floats.push(i + 0.5);
    expect(floats.get(0)).toBe(0.5);
    expect(floats.get(4095)).toBe(4095.5);
    expect(floats.get(4096)).toBe(4096.5);
    expect(floats.get(9999)).toBe(9999.5);
    // Three pages of 4,096 float64s.
    expect(floats.bytes).toBe(3 * 4096 * 8);
  });
});
