/**
 * The 95% interval across seeds, against values worked by hand.
 */
import { describe, expect, it } from 'vitest';
import { meanInterval } from '../../src/entries/studies.js';
import { tQuantile975 } from '../../src/study/interval.js';
import { gridPoints } from '../../src/study/grid.js';

describe('meanInterval', () => {
  it('is mean ± t(0.975, n-1) · s/√n', () => {
    // 1..5: mean 3, s = √2.5, s/√5 = 0.70711, t(4) = 2.776 → ±1.96293
    const interval = meanInterval([1, 2, 3, 4, 5]);
    expect(interval.mean).toBe(3);
    expect(interval.low).toBeCloseTo(3 - 1.96293, 4);
    expect(interval.high).toBeCloseTo(3 + 1.96293, 4);
  });

  it('has no interval for one sample, and a zero-width one for equal samples', () => {
    expect(meanInterval([7])).toEqual({ n: 1, mean: 7, low: null, high: null });
    expect(meanInterval([4, 4, 4])).toEqual({ n: 3, mean: 4, low: 4, high: 4 });
    expect(meanInterval([]).mean).toBeNaN();
  });

  it('uses t quantiles that fall towards the normal 1.96 as samples grow', () => {
    expect(tQuantile975(1)).toBe(12.706);
    expect(tQuantile975(30)).toBe(2.042);
    expect(tQuantile975(31)).toBeCloseTo(2.0395, 3);
    expect(tQuantile975(60)).toBeCloseTo(2.0003, 3);
    expect(tQuantile975(1000)).toBeCloseTo(1.9623, 3);
    for (let df = 1; df < 200; df++) expect(tQuantile975(df + 1)).toBeLessThan(tQuantile975(df));
  });
});

describe('gridPoints', () => {
  it('lists every combination, the last parameter varying fastest', () => {
    expect(gridPoints({ a: [1, 2], b: ['x', 'y', 'z'] }).map((p) => p.name)).toEqual([
      'a=1 b=x',
      'a=1 b=y',
      'a=1 b=z',
      'a=2 b=x',
      'a=2 b=y',
      'a=2 b=z',
    ]);
    expect(gridPoints({})).toEqual([{ name: '', values: {} }]);
  });
});
