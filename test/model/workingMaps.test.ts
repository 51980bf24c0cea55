import { describe, expect, it } from 'vitest';
import {
  countOf,
  deleteEntry,
  emptyLike,
  entryOf,
  idsOf,
  setEntry,
  workingCollection,
} from '../../src/model/workingMaps.js';

describe.each([
  ['a record (snapshots, immer drafts)', (): Record<string, number> => ({})],
  ['a Map (the working state)', () => workingCollection<number>()],
])('the keyed collection accessors on %s', (_, make) => {
  it('read and write the same entries in the same order', () => {
    const collection = make();
    setEntry(collection, 'b', 2);
    setEntry(collection, 'a', 1);
    setEntry(collection, 'c', 3);
    deleteEntry(collection, 'b');
    setEntry(collection, 'b', 4);
    setEntry(collection, 'a', 5);
    expect([...idsOf(collection)]).toEqual(['a', 'c', 'b']);
    expect([...idsOf(collection)].map((id) => entryOf(collection, id))).toEqual([5, 3, 4]);
    expect(countOf(collection)).toBe(3);
    expect(entryOf(collection, 'c')).toBe(3);
    expect(entryOf(collection, 'z')).toBeUndefined();
  });

  it('find no built-ins under outside keys', () => {
    const collection = make();
    expect(entryOf(collection, 'constructor')).toBeUndefined();
    expect(entryOf(collection, '__proto__')).toBeUndefined();
  });

  it('make empty collections of their own kind', () => {
    const collection = make();
    const made = emptyLike<number>(collection);
    expect(made instanceof Map).toBe(collection instanceof Map);
    expect(countOf(made)).toBe(0);
  });
});
