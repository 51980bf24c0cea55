/**
 * Publishing without declared paths: the next immutable snapshot from a walk of the whole working
 * state, sharing every object of the previous snapshot whose content is unchanged. The engine uses it
 * after long stretches of events, where one walk of the state costs less than declaring the paths of
 * every event. A `Map` of the working state shows as the record of its entries, and a field holding
 * `undefined` (a field the working state cleared) as absent.
 */

import { publishedViewOf, type PublishedView } from './publishedView.js';

type Node = Record<string, unknown>;

/** Counts the entries a walk visited: what the publish cost, in the unit the engine spaces them by. */
export interface WalkTally {
  entries: number;
}

/**
 * The next snapshot: deep-equal to `working` (same keys in the same order), deeply frozen, and made
 * of the objects of `published` wherever their content did not change. Frozen working objects are
 * shared as they are.
 */
export function reconcileSnapshot<S>(
  published: S,
  working: S,
  walked: WalkTally = { entries: 0 },
): S {
  return reconcile(published, working, walked) as S;
}

function reconcile(published: unknown, working: unknown, walked: WalkTally): unknown {
  if (typeof working !== 'object' || working === null || Object.isFrozen(working)) return working;
  if (Array.isArray(working)) return reconcileArray(published, working as unknown[], walked);
  const previous = typeof published === 'object' && published !== null ? published : undefined;
  const view = publishedViewOf(working);
  if (view !== undefined) return reconcileViewed(previous as Node, working as Node, view, walked);
  const shown = working as Node | Map<string, unknown>;
  if (previous === undefined || Array.isArray(previous))
    return reconcileObject(undefined, shown, walked);
  return reconcileObject(previous as Node, shown, walked);
}

/**
 * The keys of the objects being walked, one run per object on the walk's path (a stack shared by the
 * recursion, so comparing key orders needs no array per object).
 */
const keyStack: string[] = [];

/** Where the walk of one object stands (see `reconcileObject`). */
interface ObjectWalk {
  readonly previous: Node | undefined;
  /** The copy, once an entry differed (from the start when there is no previous object). */
  out: Node | undefined;
  count: number;
  readonly base: number;
  readonly walked: WalkTally;
}

/**
 * `previous` when `working` (an object, or a `Map` shown as a record) has the same keys in the same
 * order and each value reconciles to the previous one; else a frozen copy. The copy is only made at
 * the first difference: most objects of a large state are unchanged at each walk, and copying them
 * only to drop the copy was most of a walk.
 */
function reconcileObject(
  previous: Node | undefined,
  working: Node | Map<string, unknown>,
  walked: WalkTally,
): Node {
  const walk: ObjectWalk = {
    previous,
    out: previous === undefined ? {} : undefined,
    count: 0,
    base: keyStack.length,
    walked,
  };
  if (working instanceof Map) for (const [key, value] of working) reconcileEntry(walk, key, value);
  else
    for (const key in working) {
      const value = working[key];
      if (value !== undefined) reconcileEntry(walk, key, value);
    }
  const { out, count, base } = walk;
  const result = out ?? (sameKeys(previous as Node, base, count) ? previous : undefined);
  keyStack.length = base;
  if (result !== undefined) return result === out ? Object.freeze(out) : result;
  return Object.freeze(copyOf(previous as Node, working));
}

/** Reconciles one entry of the object `walk` is on. */
function reconcileEntry(walk: ObjectWalk, key: string, value: unknown): void {
  walk.walked.entries++;
  const before = walk.previous?.[key];
  const next = reconcile(before, value, walk.walked);
  if (walk.out === undefined && next !== before)
    walk.out = copyOfFirst(walk.count, walk.base, walk.previous as Node);
  if (walk.out !== undefined) walk.out[key] = next;
  else keyStack.push(key);
  walk.count++;
}

/**
 * `previous` when the view still shows what it showed there and every field reconciles to the one
 * it held; else a new copy that shares every field that did not change. A view's field is compared
 * by the plain value beneath it, never by building what it shows.
 */
function reconcileViewed(
  previous: Node | undefined,
  working: Node,
  view: PublishedView,
  walked: WalkTally,
): Node {
  const earlier = previous === undefined || Array.isArray(previous) ? undefined : previous;
  let same = earlier !== undefined && view.current(earlier);
  const out: Node = {};
  for (const key in working) {
    if (working[key] === undefined) continue;
    walked.entries++;
    const before =
      earlier === undefined
        ? undefined
        : view.keys.has(key)
          ? view.underlying(earlier, key)
          : earlier[key];
    const value = reconcile(before, working[key], walked);
    if (value !== before) same = false;
    out[key] = value;
  }
  if (same && sameKeyOrder(earlier as Node, out)) return earlier as Node;
  view.define(out);
  return Object.freeze(out);
}

/** Whether two objects have the same keys in the same order (read without touching values). */
function sameKeyOrder(a: Node, b: Node): boolean {
  const keys = Object.keys(b);
  let i = 0;
  for (const key in a) if (keys[i++] !== key) return false;
  return i === keys.length;
}

/** A new object with the first `count` keys walked (on the stack from `base`) and their values in `previous`. */
function copyOfFirst(count: number, base: number, previous: Node): Node {
  const out: Node = {};
  for (let i = 0; i < count; i++) {
    const key = keyStack[base + i] as string;
    out[key] = previous[key];
  }
  keyStack.length = base;
  return out;
}

/**
 * True when `previous` has exactly the `count` keys on the stack from `base`, in that order (a key
 * the walk found equal to `undefined` in `previous` may be missing there: only this tells).
 */
function sameKeys(previous: Node, base: number, count: number): boolean {
  let i = 0;
  for (const key in previous) if (i >= count || keyStack[base + i++] !== key) return false;
  return i === count;
}

/**
 * `working`'s keys in its order (but those holding `undefined`), each with `previous`'s value (equal
 * to working's, reconciled).
 */
function copyOf(previous: Node, working: Node | Map<string, unknown>): Node {
  const out: Node = {};
  if (working instanceof Map) for (const key of working.keys()) out[key] = previous[key];
  else for (const key in working) if (working[key] !== undefined) out[key] = previous[key];
  return out;
}

function reconcileArray(
  published: unknown,
  working: readonly unknown[],
  walked: WalkTally,
): readonly unknown[] {
  const previous = Array.isArray(published) ? (published as readonly unknown[]) : undefined;
  let same = previous?.length === working.length;
  walked.entries += working.length;
  const out = working.map((value, i) => {
    const before = previous?.[i];
    const next = reconcile(before, value, walked);
    if (next !== before) same = false;
    return next;
  });
  return same ? (previous as readonly unknown[]) : Object.freeze(out);
}
