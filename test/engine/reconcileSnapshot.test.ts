import fc from 'fast-check';
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

  it('copies an object whose keys changed order, or gained or lost one, even with equal values', () => {
    const working: Record<string, unknown> = { a: 1, b: 2, c: 3 };
    const first = reconcileSnapshot({}, working);
    delete working['a'];
    working['a'] = 1;
    const reordered = reconcileSnapshot(first, working);
    expect(reordered).not.toBe(first);
    expect(Object.keys(reordered)).toEqual(['b', 'c', 'a']);
    delete working['c'];
    const fewer = reconcileSnapshot(reordered, working);
    expect(Object.keys(fewer)).toEqual(['b', 'a']);
    working['c'] = 3;
    const more = reconcileSnapshot(fewer, working);
    expect(Object.keys(more)).toEqual(['b', 'a', 'c']);
    expect(reconcileSnapshot(more, working)).toBe(more);
  });

  it('shows a field holding undefined as absent, as a deleted one', () => {
    const working: Record<string, number | undefined> = { a: 1, b: 2, c: 3 };
    const first = reconcileSnapshot({}, working);
    working['b'] = undefined;
    const cleared = reconcileSnapshot(first, working);
    expect(Object.keys(cleared)).toEqual(['a', 'c']);
    expect(reconcileSnapshot(cleared, working)).toBe(cleared);
    delete working['b'];
    expect(reconcileSnapshot(cleared, working)).toBe(cleared);
    working['b'] = 2;
    expect(Object.keys(reconcileSnapshot(cleared, working))).toEqual(['a', 'c', 'b']);
  });

  it('after any edits, equals the working state key for key and shares every unchanged object', () => {
    type Tree = { [key: string]: number | undefined | Tree };
    const key = fc.constantFrom('a', 'b', 'c', 'd');
    const edit = fc.tuple(
      fc.array(key, { minLength: 1, maxLength: 3 }),
      fc.oneof(
        fc.constant<'delete'>('delete'),
        fc.constant<'object'>('object'),
        fc.constant(undefined),
        fc.integer({ min: 0, max: 3 }),
      ),
    );
    fc.assert(
      fc.property(fc.array(fc.array(edit, { maxLength: 6 }), { maxLength: 5 }), (rounds) => {
        const working: Tree = {};
        let published: Tree = reconcileSnapshot({}, working);
        for (const edits of rounds) {
          const before = JSON.stringify(published);
          for (const [path, change] of edits) {
            let node = working;
            for (const step of path.slice(0, -1)) {
              const next = node[step];
              if (typeof next !== 'object') node[step] = {};
              node = node[step] as Tree;
            }
            const last = path[path.length - 1] as string;
            if (change === 'delete') delete node[last];
            else node[last] = change === 'object' ? {} : change;
          }
          const next = reconcileSnapshot(published, working);
          // The working state's keys in its order (those holding undefined left out), the same
          // values; the previous snapshot is untouched.
          const shown = withoutUndefined(working);
          expect(JSON.stringify(next, replacer)).toBe(JSON.stringify(shown, replacer));
          expect(next).toEqual(working);
          expect(JSON.stringify(published)).toBe(before);
          if (JSON.stringify(shown, replacer) === JSON.stringify(published, replacer))
            expect(next).toBe(published);
          published = next;
        }
      }),
    );
  });
});

/** Keeps `undefined` values and key order visible in JSON. */
function replacer(_key: string, value: unknown): unknown {
  if (value === undefined) return '<undefined>';
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return Object.entries(value);
  return value;
}

/** A deep copy without the fields that hold `undefined`: what a snapshot shows. */
function withoutUndefined(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, field]) => field !== undefined)
      .map(([key, field]) => [key, withoutUndefined(field)]),
  );
}
