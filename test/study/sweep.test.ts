/**
 * Sweeps: the same results whatever the number of worker threads (and the same as in this thread),
 * one point per grid combination, intervals across seeds, and clear refusals of bad options.
 */
import { describe, expect, it } from 'vitest';
import { sweep, sweepStudyFile, sweepCsv, sweepTable } from '../../src/entries/studies.js';
import { planSweep } from '../../src/study/sweepPlan.js';
import tiny from '../fixtures/tinyStudy.js';

const TINY = 'test/fixtures/tinyStudy.ts';
const options = { seeds: [11, 12, 13] } as const;

describe('sweep', () => {
  it('gives identical results with 1 and 2 worker threads, and in this thread', async () => {
    const one = await sweepStudyFile(TINY, { ...options, workers: 1 });
    const two = await sweepStudyFile(TINY, { ...options, workers: 2 });
    expect(JSON.stringify(two)).toBe(JSON.stringify(one));
    expect(JSON.stringify(sweep(tiny, options))).toBe(JSON.stringify(one));
  }, 60_000);

  it('runs every grid combination over the baseline params, each with every seed', () => {
    const result = sweep(tiny, {
      ...options,
      grid: { suspendTimeout: [60, -1], projects: [1, 2] },
    });
    expect(result.parameters).toEqual(['suspendTimeout', 'projects']);
    expect(result.points.map((p) => p.name)).toEqual([
      'suspendTimeout=60 projects=1',
      'suspendTimeout=60 projects=2',
      'suspendTimeout=-1 projects=1',
      'suspendTimeout=-1 projects=2',
    ]);
    expect(result.points[3]?.params).toEqual({ suspendTimeout: -1, projects: 2 });
    for (const point of result.points) expect(point.runs.map((r) => r.seed)).toEqual([11, 12, 13]);
    const [oneShort, twoShort, oneNever] = result.points.map((p) => p.summary['cuHours']!.mean);
    expect(twoShort).toBeGreaterThan(oneShort!);
    expect(oneNever).toBeGreaterThan(oneShort!);
  });

  it('summarises each figure with the mean and a 95% interval that holds the runs’ spread', () => {
    const [point] = sweep(tiny, options).points;
    const sessions = point!.runs.map((r) => r.fleet.sessions);
    expect(new Set(sessions).size).toBeGreaterThan(1);
    const summary = point!.summary['sessions']!;
    expect(summary.n).toBe(3);
    expect(summary.mean).toBeCloseTo(sessions.reduce((a, b) => a + b, 0) / 3, 9);
    expect(summary.low!).toBeLessThan(summary.mean);
    expect(summary.high! - summary.mean).toBeCloseTo(summary.mean - summary.low!, 9);
  });

  it('leaves runs without samples out of percentile figures instead of counting them as 0', () => {
    const result = sweep(tiny, { ...options, grid: { suspendTimeout: [60, -1] } });
    const [short, never] = result.points;
    for (const run of never!.runs) expect(run.fleet.coldStartWaitMs.count).toBe(0);
    expect(never!.summary['coldStartWaitP95Ms']).toMatchObject({ n: 0, low: null, high: null });
    expect(short!.summary['coldStartWaitP95Ms']!.n).toBe(3);
    expect(short!.summary['coldStartWaitP95Ms']!.mean).toBeGreaterThan(0);
    const line = sweepTable(result, ['coldStartWaitP95Ms']).split('\n')[2];
    expect(line).toMatch(/^suspendTimeout=-1\s+3\s+–$/);
  });

  it('sweeps the configurations when told the grid is empty, with no interval for one seed', () => {
    const result = sweep(tiny, { grid: {} });
    expect(result.points.map((p) => p.name)).toEqual(['timeout 300 s', 'timeout 60 s']);
    expect(result.seeds).toEqual([11]);
    expect(result.points[0]!.summary['cuHours']).toMatchObject({ n: 1, low: null, high: null });
  });

  it.each([
    [{ seeds: [] }, /at least one seed/],
    [{ seeds: [1, 1] }, /seeds must be distinct/],
    [{ seeds: [1.5] }, /whole numbers/],
    [{ duration: '3 weeks' }, /Invalid duration/],
    [{ grid: { bogus: [1] } }, /unknown parameter "bogus" \(tiny has: suspendTimeout, projects\)/],
    [{ grid: { projects: [] } }, /at least one value for projects/],
  ])('refuses %j', (bad, message) => {
    expect(() => planSweep(tiny, bad as never)).toThrow(message);
  });

  it('reports which run failed when a study throws, from a worker thread', async () => {
    await expect(
      sweepStudyFile('test/fixtures/brokenStudy.ts', { workers: 2, grid: {} }),
    ).rejects.toThrow(/run 2 failed: setup refused on purpose/);
  }, 30_000);

  it('fails, rather than hangs, when a worker thread ends before its runs are done', async () => {
    await expect(
      sweepStudyFile('test/fixtures/exitingStudy.ts', { workers: 2, grid: {} }),
    ).rejects.toThrow(/a worker exited \(code 0\) before its runs were done/);
  }, 30_000);

  it('refuses a file that is missing or does not export a study', async () => {
    await expect(sweepStudyFile('test/fixtures/nope.ts')).rejects.toThrow(
      /cannot load study test\/fixtures\/nope.ts: no such file/,
    );
    await expect(sweepStudyFile('test/fixtures/notAStudy.ts')).rejects.toThrow(
      /does not export a study: name must be letters/,
    );
  });

  it('prints a table with mean ± interval and a CSV with every figure per point', () => {
    const result = sweep(tiny, { seeds: [1, 2] });
    const table = sweepTable(result, ['cuHours', 'starts']).split('\n');
    expect(table[0]).toMatch(/^point\s+seeds\s+CU-hours\s+starts$/);
    expect(table[1]).toMatch(/^suspendTimeout=60\s+2\s+[\d.,]+ ±[\d.,]+\s+[\d,]+ ±[\d,]+$/);
    expect(() => sweepTable(result, ['nope'])).toThrow(/unknown figure "nope" \(figures: cuHours/);
    const csv = sweepCsv(result).trimEnd().split('\n');
    expect(csv).toHaveLength(4);
    expect(csv[0]).toMatch(/^point,suspendTimeout,seeds,cuHours_mean,cuHours_low,cuHours_high,/);
    const cells = csv[1]!.split(',');
    expect(cells.slice(0, 3)).toEqual(['suspendTimeout=60', '60', '2']);
    expect(Number(cells[3])).toBeCloseTo(result.points[0]!.summary['cuHours']!.mean, 9);
  });
});
