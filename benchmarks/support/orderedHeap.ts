/**
 * The floor that solves the agenda's whole problem: a binary min-heap on typed arrays ordered by
 * `(due, seq)`, so timers due at the same instant leave in the order they came (which determinism
 * needs), with no payloads and no bookkeeping beyond that.
 */

/** Min-heap of (due, seq) pairs on two Float64Arrays. */
export class OrderedHeap {
  readonly #due: Float64Array;
  readonly #seq: Float64Array;
  #size = 0;
  #nextSeq = 0;

  constructor(capacity: number) {
    this.#due = new Float64Array(capacity);
    this.#seq = new Float64Array(capacity);
  }

  push(due: number): void {
    const dues = this.#due;
    const seqs = this.#seq;
    const seq = this.#nextSeq++;
    let i = this.#size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pd = dues[parent] as number;
      if (pd < due || (pd === due && (seqs[parent] as number) < seq)) break;
      dues[i] = pd;
      seqs[i] = seqs[parent] as number;
      i = parent;
    }
    dues[i] = due;
    seqs[i] = seq;
  }

  pop(): number {
    const dues = this.#due;
    const seqs = this.#seq;
    const top = dues[0] as number;
    const last = --this.#size;
    const due = dues[last] as number;
    const seq = seqs[last] as number;
    let i = 0;
    const half = last >> 1;
    while (i < half) {
      let child = 2 * i + 1;
      const right = child + 1;
      if (right < last) {
        const cd = dues[child] as number;
        const rd = dues[right] as number;
        if (rd < cd || (rd === cd && (seqs[right] as number) < (seqs[child] as number)))
          child = right;
      }
      const cd = dues[child] as number;
      if (due < cd || (due === cd && seq < (seqs[child] as number))) break;
      dues[i] = cd;
      seqs[i] = seqs[child] as number;
      i = child;
    }
    dues[i] = due;
    seqs[i] = seq;
    return top;
  }
}
