/**
 * Publishing: turns the engine's private mutable working state into the next immutable snapshot,
 * copying only the objects on changed paths and sharing everything else with the previous snapshot
 * (as immer does, but from declared paths instead of a proxy trap per access, which the hot loop
 * cannot afford). A `Map` of the working state shows as the record of its entries, and a field
 * holding `undefined` (how the working state clears a field without deleting it) shows as absent.
 */
import type { DirtyNode } from './dirtyPaths.js';
import { publishedViewOf, type PublishedView } from './publishedView.js';

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
  const out: Node = {};
  if (working instanceof Map) {
    for (const [key, value] of working as Map<string, unknown>)
      out[key] = refreshEntry(published, key, value, dirty, undefined);
    return Object.freeze(out);
  }
  const view = publishedViewOf(working);
  for (const key in working) {
    const value = working[key];
    if (value !== undefined) out[key] = refreshEntry(published, key, value, dirty, view);
  }
  view?.define(out);
  return Object.freeze(out);
}

/** The published value of one entry of an object on a dirty path. */
function refreshEntry(
  published: Node,
  key: string,
  value: unknown,
  dirty: DirtyNode,
  view: PublishedView | undefined,
): unknown {
  if (!isObject(value) || Object.isFrozen(value)) return value;
  const dirtyChild = dirty.get(key);
  const previous = view?.keys.has(key) === true ? view.underlying(published, key) : published[key];
  if (dirtyChild !== undefined) return refresh(previous, value, dirtyChild);
  return previous === undefined ? frozenCopy(value) : previous;
}

/**
 * A deep, frozen copy (a `Map` becomes a record, an `undefined` field is left out); frozen objects
 * inside are shared, not copied.
 */
export function frozenCopy<T>(value: T): T {
  if (!isObject(value) || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  const out: Node = {};
  if (value instanceof Map) {
    for (const [key, entry] of value as Map<string, unknown>) out[key] = frozenCopy(entry);
    return Object.freeze(out) as T;
  }
  for (const key in value) {
    const field = (value as Node)[key];
    if (field !== undefined) out[key] = frozenCopy(field);
  }
  publishedViewOf(value)?.define(out);
  return Object.freeze(out) as T;
}

function isObject(value: unknown): value is Node {
  return typeof value === 'object' && value !== null;
}
