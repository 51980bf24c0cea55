/**
 * Work done once per key and shared by every caller that asks meanwhile or later, unless it fails:
 * a failure is not kept, so the next caller tries again (the sources may have been fixed).
 */

/** Promises made once per key, forgotten when they reject. */
export class OnceEach<K, V> {
  readonly #made = new Map<K, Promise<V>>();

  /** What `make` makes for `key`: made on the first call for it, and again after a failure. */
  get(key: K, make: () => Promise<V>): Promise<V> {
    let made = this.#made.get(key);
    if (made === undefined) {
      made = make();
      this.#made.set(key, made);
      made.catch(() => this.#made.delete(key));
    }
    return made;
  }
}
