/**
 * The set of state paths changed since the last publish, kept as a trie so that shared prefixes
 * (the projects record, one project) are recorded once however many events touch them.
 */

/** A node of the trie: its changed children by key. The root stands for the state object itself. */
export type DirtyNode = Map<string, DirtyNode>;

/**
 * Marks a path (up to four keys from the root) as changed. Every object along the path counts as
 * changed in its own fields; objects below the last key count as unchanged unless marked too.
 */
export type Touch = (k1?: string, k2?: string, k3?: string, k4?: string) => void;

/** Accumulates changed paths between publishes. */
export class DirtyPaths {
  #root: DirtyNode = new Map();
  #any = false;

  /** The `touch` callback handed to the domain; bound once, allocation-free per call. */
  readonly touch: Touch = (k1, k2, k3, k4) => {
    this.#any = true;
    if (k1 === undefined) return;
    let node = child(this.#root, k1);
    if (k2 === undefined) return;
    node = child(node, k2);
    if (k3 === undefined) return;
    node = child(node, k3);
    if (k4 === undefined) return;
    child(node, k4);
  };

  /** True when anything was touched since the last `take`. */
  get any(): boolean {
    return this.#any;
  }

  /** Returns the trie and starts a new, empty one. */
  take(): DirtyNode {
    const root = this.#root;
    this.#root = new Map();
    this.#any = false;
    return root;
  }
}

function child(node: DirtyNode, key: string): DirtyNode {
  let next = node.get(key);
  if (next === undefined) {
    next = new Map();
    node.set(key, next);
  }
  return next;
}
