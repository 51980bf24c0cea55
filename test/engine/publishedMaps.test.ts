import { describe, expect, it } from 'vitest';
import { DirtyPaths } from '../../src/engine/dirtyPaths.js';
import { frozenCopy, publishSnapshot } from '../../src/engine/publishSnapshot.js';
import { reconcileSnapshot } from '../../src/engine/reconcileSnapshot.js';

interface Connection {
  status: string;
}
/** A working state with a `Map` where its snapshots show a record. */
interface Working {
  readonly other: { n: number };
  readonly live: Map<string, Connection>;
}
/** How its snapshots show it. */
interface Shown {
  readonly other: { n: number };
  readonly live: Readonly<Record<string, Connection>>;
}

function working(): Working {
  const live = new Map([
    ['c-2', { status: 'open' }],
    ['c-1', { status: 'connecting' }],
  ]);
  return { other: { n: 1 }, live };
}

const shown = (snapshot: Working): Shown => snapshot as unknown as Shown;
const asWorking = (snapshot: Shown): Working => snapshot as unknown as Working;

describe('a Map in the working state', () => {
  it('shows as a frozen record of its entries, in insertion order', () => {
    const copy = shown(frozenCopy(working()));
    expect(copy.live).not.toBeInstanceOf(Map);
    expect(Object.keys(copy.live)).toEqual(['c-2', 'c-1']);
    expect(copy.live['c-1']).toEqual({ status: 'connecting' });
    expect(Object.isFrozen(copy.live)).toBe(true);
    expect(Object.isFrozen(copy.live['c-1'])).toBe(true);
  });

  it('publishes from declared paths: changed entries copied, the others shared', () => {
    const state = working();
    const first = shown(frozenCopy(state));
    state.live.delete('c-2');
    (state.live.get('c-1') as Connection).status = 'open';
    state.live.set('c-3', { status: 'connecting' });
    state.live.set('c-2', { status: 'open' });
    const dirty = new DirtyPaths();
    for (const id of ['c-1', 'c-2', 'c-3']) dirty.touch('live', id);
    const paths = dirty.take();
    if (paths === undefined) throw new Error('paths were recorded');
    const next = shown(publishSnapshot(asWorking(first), state, paths));
    expect(Object.keys(next.live)).toEqual(['c-1', 'c-3', 'c-2']);
    expect(next.live['c-1']).toEqual({ status: 'open' });
    expect(next.other).toBe(first.other);
  });

  it('is walked like a record: the previous record given back while its entries are the same', () => {
    const state = working();
    const first = shown(reconcileSnapshot(asWorking({} as Shown), state));
    expect(Object.keys(first.live)).toEqual(['c-2', 'c-1']);
    const again = shown(reconcileSnapshot(asWorking(first), state));
    expect(again.live).toBe(first.live);
    state.live.delete('c-2');
    state.live.set('c-2', { status: 'open' });
    const reordered = shown(reconcileSnapshot(asWorking(again), state));
    expect(Object.keys(reordered.live)).toEqual(['c-1', 'c-2']);
    expect(reordered.live['c-1']).toBe(first.live['c-1']);
    expect(Object.isFrozen(reordered.live)).toBe(true);
  });
});
