/**
 * Paired comparisons: each configuration's difference from the baseline is taken seed by seed (the
 * same sessions under both) and summarised with its 95% interval; a seed where either run lacks a
 * figure is left out of that figure's pairs; one seed gives differences without intervals. The
 * table lines up means and differences in columns.
 */
import { describe, expect, it } from 'vitest';
import { differenceSign, FIGURES, figureOf } from '../../src/study/figures.js';
import { meanInterval } from '../../src/study/interval.js';
import {
  clearOfZero,
  pairedComparison,
  pairedTable,
  signedDifference,
} from '../../src/study/pairedComparison.js';
import { sweep } from '../../src/study/sweep.js';
import type { SweepResult } from '../../src/study/sweepResult.js';
import tiny from '../fixtures/tinyStudy.js';
import { expectDeltasInColumns } from '../support/deltaColumns.js';

const result = sweep(tiny, { grid: {}, seeds: [11, 12, 13], duration: '2h' });
const figure = (key: string) => FIGURES.find((f) => f.key === key)!;

describe('pairedComparison', () => {
  const paired = pairedComparison(result);

  it('takes each configuration’s difference from the baseline seed by seed', () => {
    expect(paired.seeds).toEqual([11, 12, 13]);
    expect(paired.arms.map((arm) => arm.name)).toEqual(['timeout 300 s', 'timeout 60 s']);
    expect(paired.arms[0]!.difference).toEqual({});
    const [base, other] = result.points;
    const differences = [0, 1, 2].map(
      (s) => other!.runs[s]!.fleet.starts - base!.runs[s]!.fleet.starts,
    );
    const starts = paired.arms[1]!.difference['starts']!;
    expect(starts).toEqual(meanInterval(differences));
    expect(starts.n).toBe(3);
    expect(starts.mean).toBeGreaterThan(0);
    expect(paired.arms[1]!.summary).toBe(other!.summary);
    // The same sessions under both: their count differs by nothing, with no spread.
    expect(paired.arms[1]!.difference['sessions']).toMatchObject({ mean: 0, low: 0, high: 0 });
  });

  it('pairs only the seeds where both runs have a figure', () => {
    const copy = structuredClone(result) as SweepResult;
    const run = copy.points[0]!.runs[1]!;
    (run.fleet as { coldStartWaitMs: { count: number } }).coldStartWaitMs.count = 0;
    expect(figureOf(figure('coldStartWaitP95Ms'), run.fleet)).toBeUndefined();
    const p95 = pairedComparison(copy).arms[1]!.difference['coldStartWaitP95Ms']!;
    expect(p95.n).toBe(2);
  });

  it('prints means ±half-intervals and signed paired differences with theirs', () => {
    const lines = pairedTable(paired).split('\n');
    expect(lines[0]).toMatch(/^\s+timeout 300 s\s+timeout 60 s \(Δ\)$/);
    const starts = lines.find((line) => line.startsWith('starts'))!;
    expect(starts).toMatch(/^starts\s+\d+ ±\d+\s+\d+ ±\d+ \(\+\d+ ±\d+, \+\d+%\)$/);
    expect(lines.find((line) => line.startsWith('sessions'))).toMatch(/\(±0 ±0, ±0%\)$/);
  });

  it("lines up each configuration's means, and its differences, on every row", () => {
    expectDeltasInColumns(pairedTable(paired));
  });

  it('gives a difference without an interval for one seed', () => {
    const one = pairedComparison(sweep(tiny, { grid: {}, seeds: [11], duration: '2h' }));
    const starts = one.arms[1]!.difference['starts']!;
    expect(starts).toMatchObject({ n: 1, low: null, high: null });
    expect(clearOfZero(starts)).toBe(false);
    expect(pairedTable(one)).toMatch(/^starts\s+\d+\s+\d+ \(\+\d+, \+\d+%\)$/m);
  });

  it('calls a difference clear of zero only when its whole interval is on one side', () => {
    expect(clearOfZero({ n: 3, mean: 2, low: 0.5, high: 3.5 })).toBe(true);
    expect(clearOfZero({ n: 3, mean: -2, low: -3.5, high: -0.5 })).toBe(true);
    expect(clearOfZero({ n: 3, mean: 1, low: -0.5, high: 2.5 })).toBe(false);
  });
});

describe('differenceSign', () => {
  it('prints a difference that rounds to zero as ±, at the digits it is shown with', () => {
    expect(differenceSign(-0.3, 0)).toBe('±');
    expect(differenceSign(0.4, 0)).toBe('±');
    expect(differenceSign(-0.3, 1)).toBe('−');
    expect(differenceSign(2, 0)).toBe('+');
    expect(differenceSign(-0.0004, 3)).toBe('±');
    const interval = { n: 3, mean: -0.33, low: -10, high: 9.4 };
    const moves = FIGURES.find((figure) => figure.key === 'resizes')!;
    expect(signedDifference(interval, { n: 3, mean: 1397, low: 1340, high: 1450 }, moves)).toBe(
      '±0 ±10, ±0%',
    );
  });
});
