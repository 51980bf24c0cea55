/**
 * The floor: the simplest fast timer queue, a binary min-heap of float64 due times on one typed array
 * (no payloads, no tie-breaking). Nothing the engine does can be cheaper than this.
 */

/** Min-heap of numbers on a Float64Array. */
export class TypedArrayHeap {
  #keys: Float64Array;
  #size = 0;

  constructor(capacity: number) {
    this.#keys = new Float64Array(capacity);
  }

  get size(): number {
    return this.#size;
  }

  push(key: number): void {
    const keys = this.#keys;
    let i = this.#size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pk = keys[parent] as number;
      if (pk <= key) break;
      keys[i] = pk;
      i = parent;
    }
    keys[i] = key;
  }

  pop(): number {
    const keys = this.#keys;
    const top = keys[0] as number;
    const last = --this.#size;
    const key = keys[last] as number;
    let i = 0;
    const half = last >> 1;
    while (i < half) {
      let child = 2 * i + 1;
      const right = child + 1;
      if (right < last && (keys[right] as number) < (keys[child] as number)) child = right;
      const ck = keys[child] as number;
      if (key <= ck) break;
      keys[i] = ck;
      i = child;
    }
    keys[i] = key;
    return top;
  }
}
