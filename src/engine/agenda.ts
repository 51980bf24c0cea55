/**
 * The scheduler's agenda: a 4-ary min-heap on typed arrays ordered by `(due, seq)`, where `seq`
 * is the order in which timers were scheduled (4-ary: half the depth of a binary heap, fewer moves
 * per pop, measured faster on the hold model). Timers are data; the engine decides when one fires
 * whether it still applies, so nothing is ever removed from the middle of the heap.
 */

/** One timer taken off the agenda. */
export interface DueTimer<T> {
  readonly due: number;
  readonly seq: number;
  readonly timer: T;
  readonly background: boolean;
}

const INITIAL_CAPACITY = 1024;

/** A min-heap of timers keyed by `(due, seq)`; ties on `due` fire in scheduling order. */
export class Agenda<T> {
  #due = new Float64Array(INITIAL_CAPACITY);
  #seq = new Float64Array(INITIAL_CAPACITY);
  #background = new Uint8Array(INITIAL_CAPACITY);
  #timers: (T | undefined)[] = new Array<T | undefined>(INITIAL_CAPACITY);
  #size = 0;
  #nextSeq = 0;
  #foreground = 0;

  /** Number of timers waiting. */
  get size(): number {
    return this.#size;
  }

  /** Number of waiting timers that are not background work (see `runUntilIdle`). */
  get foregroundCount(): number {
    return this.#foreground;
  }

  /** The sequence number the next scheduled timer will get. */
  get nextSeq(): number {
    return this.#nextSeq;
  }

  /** Due time of the next timer, or `Infinity` when the agenda is empty. */
  peekDue(): number {
    return this.#size === 0 ? Infinity : (this.#due[0] as number);
  }

  /** Schedules `timer` at `due`; returns its sequence number. */
  push(due: number, timer: T, background = false): number {
    if (this.#size === this.#due.length) this.#grow();
    const seq = this.#nextSeq++;
    if (!background) this.#foreground++;
    let i = this.#size++;
    const dues = this.#due;
    const seqs = this.#seq;
    while (i > 0) {
      const parent = (i - 1) >> 2;
      const pd = dues[parent] as number;
      if (pd < due || (pd === due && (seqs[parent] as number) < seq)) break;
      this.#move(parent, i);
      i = parent;
    }
    dues[i] = due;
    seqs[i] = seq;
    this.#background[i] = background ? 1 : 0;
    this.#timers[i] = timer;
    return seq;
  }

  /** Removes and returns the earliest timer, or `undefined` when empty. */
  pop(): DueTimer<T> | undefined {
    if (this.#size === 0) return undefined;
    const top: DueTimer<T> = {
      due: this.#due[0] as number,
      seq: this.#seq[0] as number,
      timer: this.#timers[0] as T,
      background: this.#background[0] === 1,
    };
    this.#removeTop();
    return top;
  }

  /**
   * Removes the earliest timer and returns only its payload: the allocation-free path of the hot
   * loop. Call `peekDue()` first for its time.
   */
  popTimer(): T | undefined {
    if (this.#size === 0) return undefined;
    const timer = this.#timers[0] as T;
    this.#removeTop();
    return timer;
  }

  /** Discards every timer due strictly before `t` (used when replaying a log). */
  discardBefore(t: number): void {
    while (this.#size > 0 && (this.#due[0] as number) < t) this.#removeTop();
  }

  #removeTop(): void {
    if (this.#background[0] === 0) this.#foreground--;
    const last = --this.#size;
    const due = this.#due[last] as number;
    const seq = this.#seq[last] as number;
    const background = this.#background[last] as number;
    const timer = this.#timers[last];
    this.#timers[last] = undefined;
    if (last === 0) return;
    const dues = this.#due;
    const seqs = this.#seq;
    let i = 0;
    for (;;) {
      const first = 4 * i + 1;
      if (first >= last) break;
      let best = first;
      let bestDue = dues[first] as number;
      let bestSeq = seqs[first] as number;
      const end = first + 4 < last ? first + 4 : last;
      for (let c = first + 1; c < end; c++) {
        const cd = dues[c] as number;
        if (cd < bestDue || (cd === bestDue && (seqs[c] as number) < bestSeq)) {
          best = c;
          bestDue = cd;
          bestSeq = seqs[c] as number;
        }
      }
      if (due < bestDue || (due === bestDue && seq < bestSeq)) break;
      this.#move(best, i);
      i = best;
    }
    dues[i] = due;
    seqs[i] = seq;
    this.#background[i] = background;
    this.#timers[i] = timer;
  }

  #move(from: number, to: number): void {
    this.#due[to] = this.#due[from] as number;
    this.#seq[to] = this.#seq[from] as number;
    this.#background[to] = this.#background[from] as number;
    this.#timers[to] = this.#timers[from];
  }

  #grow(): void {
    const capacity = this.#due.length * 2;
    const due = new Float64Array(capacity);
    due.set(this.#due);
    const seq = new Float64Array(capacity);
    seq.set(this.#seq);
    const background = new Uint8Array(capacity);
    background.set(this.#background);
    this.#due = due;
    this.#seq = seq;
    this.#background = background;
    this.#timers.length = capacity;
  }
}
