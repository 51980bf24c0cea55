import { describe, expect, it } from 'vitest';
import { DirtyPaths, OWN_FIELDS, type DirtyNode } from '../../src/engine/dirtyPaths.js';

/** The trie as nested plain objects, for comparison. */
function plainOf(node: DirtyNode | undefined): unknown {
  if (node === undefined) return undefined;
  return Object.fromEntries([...node].map(([key, child]) => [key, plainOf(child)]));
}

describe('DirtyPaths', () => {
  it('keeps a path end whole when a deeper path under it is touched after it', () => {
    const dirty = new DirtyPaths();
    dirty.touch('projects', 'p');
    dirty.touch('projects', 'p', 'branches', 'b');
    dirty.touch('projects', 'p', OWN_FIELDS);
    expect(plainOf(dirty.take())).toEqual({ projects: { p: {} } });
  });

  it('widens deeper paths to a path end touched after them', () => {
    const dirty = new DirtyPaths();
    dirty.touch('projects', 'p', 'branches', 'b');
    dirty.touch('endpointOwners', 'e');
    dirty.touch('projects', 'p');
    dirty.touch('endpointOwners');
    expect(plainOf(dirty.take())).toEqual({ projects: { p: {} }, endpointOwners: {} });
  });

  it('keeps sibling paths apart', () => {
    const dirty = new DirtyPaths();
    dirty.touch('projects', 'p', 'branches', 'b');
    dirty.touch('projects', 'p', 'endpoints', 'e');
    dirty.touch('projects', 'q', OWN_FIELDS);
    expect(plainOf(dirty.take())).toEqual({
      projects: { p: { branches: { b: {} }, endpoints: { e: {} } }, q: { [OWN_FIELDS]: {} } },
    });
  });
});
