/**
 * Exact sums: the total is the correctly rounded exact sum, the same whatever the order or split.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExactSum } from '../../src/core/exactSum.js';

const sumOf = (values: readonly number[]) =>
  values.reduce((sum, value) => sum.add(value), new ExactSum()).total();

describe('ExactSum', () => {
  it('adds without the rounding of a running float sum', () => {
    expect(sumOf([1e100, 1, -1e100])).toBe(1);
    expect(sumOf([0.1, 0.2, 0.3])).toBe(0.6);
    expect(0.1 + 0.2 + 0.3).not.toBe(0.6);
    expect(sumOf([])).toBe(0);
  });

  it('gives the same total in any order and any split into merged parts', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }), {
          maxLength: 40,
        }),
        fc.nat(),
        (values, cut) => {
          const at = values.length === 0 ? 0 : cut % values.length;
          const left = values.slice(0, at).reduce((s, v) => s.add(v), new ExactSum());
          const right = values.slice(at).reduce((s, v) => s.add(v), new ExactSum());
          const merged = new ExactSum(right.partials).merge(left).total();
          expect(merged).toBe(sumOf(values));
          expect(sumOf([...values].reverse())).toBe(sumOf(values));
        },
      ),
    );
  });

  it('refuses what has no exact sum', () => {
    expect(() => new ExactSum().add(Number.NaN)).toThrow(/cannot add NaN/);
  });
});
