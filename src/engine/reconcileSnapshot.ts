/**
 * Publishing without declared paths: the next immutable snapshot from a walk of the whole working
 * state, sharing every object of the previous snapshot whose content is unchanged. The engine uses it
 * after long stretches of events, where one walk of the state costs less than declaring the paths of
 * every event.
 */

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
  if (previous === undefined || Array.isArray(previous))
    return reconcileObject(undefined, working as Node, walked);
  return reconcileObject(previous as Node, working as Node, walked);
}

function reconcileObject(previous: Node | undefined, working: Node, walked: WalkTally): Node {
  const keys = previous === undefined ? undefined : Object.keys(previous);
  let same = keys !== undefined;
  let index = 0;
  const out: Node = {};
  for (const key in working) {
    walked.entries++;
    const before = previous?.[key];
    const value = reconcile(before, working[key], walked);
    if (value !== before || keys?.[index] !== key) same = false;
    out[key] = value;
    index++;
  }
  if (same && keys?.length === index) return previous as Node;
  return Object.freeze(out);
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
