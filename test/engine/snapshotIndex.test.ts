/**
 * The snapshot index stays bounded on long runs: it thins out and doubles its spacing, keeping the
 * first snapshot and an even spread, and still finds the latest snapshot at or before any time.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SnapshotIndex } from '../../src/engine/snapshotIndex.js';

describe('snapshot index', () => {
  it('never holds more than maxKept snapshots, and finds the latest one at or before a time', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 2, max: 10 }),
        fc.integer({ min: 1, max: 500 }),
        fc.nat({ max: 3_000 }),
        (every, maxKept, offers, probe) => {
          const index = new SnapshotIndex<number>(every, maxKept);
          const kept: number[] = [];
          for (let seq = 0; seq < offers; seq++) {
            index.offer(seq, seq * 10, seq);
            expect(index.size).toBeLessThanOrEqual(maxKept);
          }
          for (let t = 0; t <= offers * 10; t += 10) {
            const found = index.latestAtOrBefore(t);
            if (found !== undefined) kept.push(found.seq);
          }
          expect(index.latestAtOrBefore(0)?.seq).toBe(0);
          const found = index.latestAtOrBefore(probe);
          expect(found).toBeDefined();
          expect(found!.at).toBeLessThanOrEqual(probe);
          // Nothing kept lies between the one found and the probe.
          expect(kept.filter((seq) => seq * 10 > found!.at && seq * 10 <= probe)).toEqual([]);
          expect(index.spacing % every).toBe(0);
        },
      ),
    );
  });

  it('keeps snapshots evenly spread after thinning', () => {
    const index = new SnapshotIndex<number>(1, 8);
    for (let seq = 0; seq < 100; seq++) index.offer(seq, seq, seq);
    const seqs = new Set<number>();
    for (let t = 0; t < 100; t++) seqs.add(index.latestAtOrBefore(t)!.seq);
    const sorted = [...seqs].sort((a, b) => a - b);
    const gaps = sorted.slice(1).map((s, i) => s - sorted[i]!);
    expect(new Set(gaps).size).toBe(1);
    expect(sorted.length).toBeLessThanOrEqual(8);
    expect(sorted.length).toBeGreaterThanOrEqual(4);
  });
});
