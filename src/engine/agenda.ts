/**
 * The scheduler's agenda: a 4-ary min-heap on typed arrays ordered by `(due, seq)`, where `seq` is
 * the order in which timers were scheduled. Timers are data; the engine decides when one fires
 * whether it still applies, so nothing is ever removed from the middle of the heap.
 *
 * The heap moves only numbers: each timer object sits still in a slot table and the heap holds its
 * slot index (4-ary: half the depth of a binary heap; slots: no pointer writes while sifting). Each
 * entry's due and seq sit side by side in one array, so the four children a sift compares are one
 * run of 64 bytes instead of two (`npm run bench -- scheduler` compares it with a binary heap).
 *
 * A timer may be armed with a key: it then replaces the pending timer of that key, which will not
 * fire. The replaced entry is only marked and stays in the heap until it reaches the top or the
 * marked entries outnumber the live ones, when the heap is rebuilt without them.
 */

/** One timer taken off the agenda. */
export interface DueTimer<T> {
  readonly due: number;
  readonly seq: number;
  readonly timer: T;
  readonly background: boolean;
}

const INITIAL_CAPACITY = 1024;
/** What a replaced timer's slot holds until its heap entry is dropped. */
const REPLACED: unique symbol = Symbol('replaced');
/** Replaced entries the heap may hold before it is rebuilt, at the least. */
const MIN_REPLACED_TO_REBUILD = 1024;

/** The pending timer armed with a key: where it sits and when it is due. */
interface KeyedTimer {
  readonly slot: number;
  readonly due: number;
  readonly seq: number;
}

/** A min-heap of timers keyed by `(due, seq)`; ties on `due` fire in scheduling order. */
export class Agenda<T> {
  /** Entry i's due at `2i`, its seq at `2i + 1`. */
  #keys = new Float64Array(2 * INITIAL_CAPACITY);
  #slotOf = new Uint32Array(INITIAL_CAPACITY);
  #timers: (T | typeof REPLACED | undefined)[] = [];
  #background: boolean[] = [];
  #freeSlots: number[] = [];
  /** Heap entries, replaced ones included. */
  #size = 0;
  #nextSeq = 0;
  #foreground = 0;
  /** Pending keyed timers by key, and the key of each slot that holds one. */
  readonly #keyed = new Map<string, KeyedTimer>();
  #slotKeys: (string | undefined)[] = [];
  /** Heap entries whose timer was replaced. */
  #replaced = 0;

  /** Number of timers waiting. */
  get size(): number {
    return this.#size - this.#replaced;
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
    return this.#size === 0 ? Infinity : (this.#keys[0] as number);
  }

  /**
   * Schedules `timer` at `due`; returns its sequence number. With a `key`, the timer replaces the
   * pending one armed with that key, which will not fire; unless that one is the same timer (equal
   * fields, same kind of work) due at the same time, which then stays, with its place among the
   * timers of that instant, and whose number is returned.
   */
  push(due: number, timer: T, background = false, key?: string): number {
    if (key !== undefined) {
      const pending = this.#keyed.get(key);
      if (pending !== undefined) {
        if (
          pending.due === due &&
          this.#background[pending.slot] === background &&
          sameTimer(this.#timers[pending.slot], timer)
        )
          return pending.seq;
        this.#replace(pending.slot);
      }
    }
    if (this.#size === this.#slotOf.length) this.#grow();
    const seq = this.#nextSeq++;
    if (!background) this.#foreground++;
    const slot =
      this.#freeSlots.length > 0 ? (this.#freeSlots.pop() as number) : this.#timers.length;
    this.#timers[slot] = timer;
    this.#background[slot] = background;
    // Written for every slot, keyed or not, so the array stays as dense as the other two.
    this.#slotKeys[slot] = key;
    if (key !== undefined) this.#keyed.set(key, { slot, due, seq });
    const keys = this.#keys;
    const slots = this.#slotOf;
    let i = this.#size++;
    while (i > 0) {
      const parent = (i - 1) >> 2;
      const pd = keys[2 * parent] as number;
      const ps = keys[2 * parent + 1] as number;
      if (pd < due || (pd === due && ps < seq)) break;
      keys[2 * i] = pd;
      keys[2 * i + 1] = ps;
      slots[i] = slots[parent] as number;
      i = parent;
    }
    keys[2 * i] = due;
    keys[2 * i + 1] = seq;
    slots[i] = slot;
    return seq;
  }

  /** Removes and returns the earliest timer, or `undefined` when empty. */
  pop(): DueTimer<T> | undefined {
    if (this.#size === 0) return undefined;
    const due = this.#keys[0] as number;
    const seq = this.#keys[1] as number;
    const background = this.#background[this.#slotOf[0] as number] === true;
    const timer = this.popTimer() as T;
    return { due, seq, timer, background };
  }

  /**
   * Removes the earliest timer and returns only its payload: the allocation-free path of the hot
   * loop. Call `peekDue()` first for its time.
   */
  popTimer(): T | undefined {
    if (this.#size === 0) return undefined;
    const slot = this.#slotOf[0] as number;
    const timer = this.#timers[slot] as T;
    if (this.#background[slot] !== true) this.#foreground--;
    this.#free(slot);
    this.#removeTop();
    if (this.#replaced > 0) this.#dropReplacedTop();
    return timer;
  }

  /** Gives a slot back, forgetting its key (a slot that holds a keyed timer is its key's entry). */
  #free(slot: number): void {
    this.#timers[slot] = undefined;
    const key = this.#slotKeys[slot];
    if (key !== undefined) {
      this.#slotKeys[slot] = undefined;
      this.#keyed.delete(key);
    }
    this.#freeSlots.push(slot);
  }

  /** Marks the timer in `slot` replaced: it leaves the heap unfired. */
  #replace(slot: number): void {
    if (this.#background[slot] !== true) this.#foreground--;
    this.#timers[slot] = REPLACED;
    const key = this.#slotKeys[slot] as string;
    this.#slotKeys[slot] = undefined;
    this.#keyed.delete(key);
    this.#replaced++;
    if (this.#slotOf[0] === slot) this.#dropReplacedTop();
    else if (this.#replaced >= MIN_REPLACED_TO_REBUILD && 2 * this.#replaced > this.#size)
      this.#rebuildWithoutReplaced();
  }

  /** Keeps the top a live timer: drops replaced entries that reached it. */
  #dropReplacedTop(): void {
    while (this.#size > 0 && this.#timers[this.#slotOf[0] as number] === REPLACED) {
      this.#replaced--;
      this.#free(this.#slotOf[0] as number);
      this.#removeTop();
    }
  }

  /**
   * Rebuilds the heap from its live entries, in `(due, seq)` order: a sorted array is a heap, and
   * keys are unique, so timers leave in the same order as before.
   */
  #rebuildWithoutReplaced(): void {
    const keys = this.#keys;
    const slots = this.#slotOf;
    const live: { due: number; seq: number; slot: number }[] = [];
    for (let i = 0; i < this.#size; i++) {
      const slot = slots[i] as number;
      if (this.#timers[slot] === REPLACED) this.#free(slot);
      else live.push({ due: keys[2 * i] as number, seq: keys[2 * i + 1] as number, slot });
    }
    live.sort((a, b) => a.due - b.due || a.seq - b.seq);
    live.forEach(({ due, seq, slot }, i) => {
      keys[2 * i] = due;
      keys[2 * i + 1] = seq;
      slots[i] = slot;
    });
    this.#size = live.length;
    this.#replaced = 0;
  }

  /** Discards every timer due strictly before `t` (used when replaying a log). */
  discardBefore(t: number): void {
    while (this.#size > 0 && (this.#keys[0] as number) < t) this.popTimer();
  }

  #removeTop(): void {
    const last = --this.#size;
    if (last === 0) return;
    const keys = this.#keys;
    const slots = this.#slotOf;
    const due = keys[2 * last] as number;
    const seq = keys[2 * last + 1] as number;
    const slot = slots[last] as number;
    let i = 0;
    for (;;) {
      const first = 4 * i + 1;
      if (first >= last) break;
      let best = first;
      let bestDue = keys[2 * first] as number;
      let bestSeq = keys[2 * first + 1] as number;
      const end = first + 4 < last ? first + 4 : last;
      for (let c = first + 1; c < end; c++) {
        const cd = keys[2 * c] as number;
        if (cd < bestDue || (cd === bestDue && (keys[2 * c + 1] as number) < bestSeq)) {
          best = c;
          bestDue = cd;
          bestSeq = keys[2 * c + 1] as number;
        }
      }
      if (due < bestDue || (due === bestDue && seq < bestSeq)) break;
      keys[2 * i] = bestDue;
      keys[2 * i + 1] = bestSeq;
      slots[i] = slots[best] as number;
      i = best;
    }
    keys[2 * i] = due;
    keys[2 * i + 1] = seq;
    slots[i] = slot;
  }

  #grow(): void {
    const capacity = this.#slotOf.length * 2;
    const keys = new Float64Array(2 * capacity);
    keys.set(this.#keys);
    const slotOf = new Uint32Array(capacity);
    slotOf.set(this.#slotOf);
    this.#keys = keys;
    this.#slotOf = slotOf;
  }
}

/** Whether two timers are the same data: one value, or objects with the same own fields. */
function sameTimer(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys)
    if ((a as Record<string, unknown>)[key] !== (b as Record<string, unknown>)[key]) return false;
  return true;
}
