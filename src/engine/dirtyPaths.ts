/**
 * The set of state paths changed since the last publish, kept as a trie so that shared prefixes
 * (the projects record, one project) are recorded once however many events touch them.
 */

/** A node of the trie: its changed children by key. The root stands for the state object itself. */
export type DirtyNode = ReadonlyMap<string, DirtyNode>;

/**
 * Marks a path (up to four keys from the root) as changed: each object along it in its own fields,
 * and the object where it ends with everything it holds (whatever deeper paths are marked under it,
 * before or after).
 */
export type Touch = (k1?: string, k2?: string, k3?: string, k4?: string) => void;

/**
 * A path key meaning "this object's own fields only": `touch('projects', id, OWN_FIELDS)` refreshes
 * the project's scalar fields without copying everything it holds.
 */
export const OWN_FIELDS = '';

type MutableNode = Map<string, MutableNode>;

/** The shared node of every path end that has no marked children (never written to). */
const LEAF: MutableNode = new Map();

/** Accumulates changed paths between publishes. */
export class DirtyPaths {
  #root: MutableNode = new Map();
  #any = false;
  #all = false;

  /** The `touch` callback handed to the domain; bound once. */
  readonly touch: Touch = (k1, k2, k3, k4) => {
    this.#any = true;
    if (k1 === undefined) return;
    if (k2 === undefined) return leaf(this.#root, k1);
    const n1 = branch(this.#root, k1);
    if (n1 === LEAF) return;
    if (k3 === undefined) return leaf(n1, k2);
    const n2 = branch(n1, k2);
    if (n2 === LEAF) return;
    if (k4 === undefined) return leaf(n2, k3);
    const n3 = branch(n2, k3);
    if (n3 !== LEAF) leaf(n3, k4);
  };

  /** True when anything was touched since the last `take`. */
  get any(): boolean {
    return this.#any;
  }

  /** Marks the whole state as possibly changed: paths are no longer recorded until the next `take`. */
  touchAll(): void {
    this.#any = true;
    this.#all = true;
  }

  /** Returns the trie (`undefined` after `touchAll`: anything may have changed) and starts anew. */
  take(): DirtyNode | undefined {
    const root = this.#all ? undefined : this.#root;
    this.#root = new Map();
    this.#any = false;
    this.#all = false;
    return root;
  }
}

/**
 * Marks `key` under `node` as a path end: everything below it is copied at the next publish, so any
 * narrower paths recorded below it before are dropped (they are covered).
 */
function leaf(node: MutableNode, key: string): void {
  node.set(key, LEAF);
}

/**
 * The node for `key` under `node`, made able to hold children; `LEAF` when `key` is already a path
 * end, which covers any deeper path (the caller then marks nothing more). Turning a path end into a
 * node with children would narrow it: a later `touch('projects', id, 'branches', b)` after
 * `touch('projects', id)` (a project replaced whole, as a recovery does) would publish only that
 * branch and keep the previous snapshot's endpoints and operations.
 */
function branch(node: MutableNode, key: string): MutableNode {
  const next = node.get(key);
  if (next !== undefined) return next;
  const created: MutableNode = new Map();
  node.set(key, created);
  return created;
}
