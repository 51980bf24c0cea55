import { describe, expect, it } from 'vitest';
import { reconcileSnapshot, type WalkTally } from '../../src/engine/reconcileSnapshot.js';

describe('reconcileSnapshot', () => {
  it('counts every entry it walks, but not inside frozen objects it shares as they are', () => {
    const shared = Object.freeze({ x: 1, y: 2, z: 3 });
    const working = { a: { b: 1, c: 2 }, d: [1, 2, 3], kept: shared };
    const walked: WalkTally = { entries: 0 };
    const snapshot = reconcileSnapshot({} as typeof working, working, walked);
    // a, b, c, d, its 3 items, kept: the frozen object's own entries are not walked.
    expect(walked.entries).toBe(8);
    expect(snapshot).toEqual(working);
    expect(snapshot.kept).toBe(shared);
    expect(Object.isFrozen(snapshot.a)).toBe(true);
  });

  it('gives back the previous snapshot’s objects where nothing changed, and counts the walk again', () => {
    const working = { a: { b: 1 }, c: { d: 2 } };
    const first = reconcileSnapshot({} as typeof working, working);
    working.c.d = 3;
    const walked: WalkTally = { entries: 0 };
    const second = reconcileSnapshot(first, working, walked);
    expect(second.a).toBe(first.a);
    expect(second.c).not.toBe(first.c);
    expect(second.c).toEqual({ d: 3 });
    expect(walked.entries).toBe(4);
  });
});
