/**
 * Publishing: turns the engine's private mutable working state into the next immutable snapshot,
 * copying only the objects on changed paths and sharing everything else with the previous snapshot
 * (as immer does, but from declared paths instead of a proxy trap per access, which the hot loop
 * cannot afford).
 */
import type { DirtyNode } from './dirtyPaths.js';
import { publishedViewOf } from './publishedView.js';

type Node = Record<string, unknown>;

/**
 * The next snapshot. The root and every object along a dirty path are refreshed shallowly: a copy
 * whose dirty children are refreshed in turn, whose children absent from `published` are copied, and
 * whose other children are the previous snapshot's. Where a dirty path ends, the whole subtree is
 * copied anew, so anything below it may have changed or been replaced. Frozen working objects are
 * shared as they are; everything new is frozen. A working object's `PublishedView` defines the
 * fields it supplies on each of its copies.
 */
export function publishSnapshot<S>(published: S, working: S, dirty: DirtyNode): S {
  return shallowRefresh(published, working, dirty) as S;
}

function refresh(published: unknown, working: unknown, dirty: DirtyNode): unknown {
  if (dirty.size === 0) return frozenCopy(working);
  return shallowRefresh(published, working, dirty);
}

function shallowRefresh(published: unknown, working: unknown, dirty: DirtyNode): unknown {
  if (!isObject(working) || Object.isFrozen(working)) return working;
  if (!isObject(published) || Array.isArray(working)) return frozenCopy(working);
  const view = publishedViewOf(working);
  const out: Node = {};
  for (const key in working) {
    const value = working[key];
    if (!isObject(value) || Object.isFrozen(value)) {
      out[key] = value;
      continue;
    }
    const dirtyChild = dirty.get(key);
    const previous =
      view?.keys.has(key) === true ? view.underlying(published, key) : published[key];
    if (dirtyChild !== undefined) out[key] = refresh(previous, value, dirtyChild);
    else out[key] = previous === undefined ? frozenCopy(value) : previous;
  }
  view?.define(out);
  return Object.freeze(out);
}

/** A deep, frozen copy; frozen objects inside are shared, not copied. */
export function frozenCopy<T>(value: T): T {
  if (!isObject(value) || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  const out: Node = {};
  for (const key in value) out[key] = frozenCopy((value as Node)[key]);
  publishedViewOf(value)?.define(out);
  return Object.freeze(out) as T;
}

function isObject(value: unknown): value is Node {
  return typeof value === 'object' && value !== null;
}
