/**
 * Timers in virtual time for client code under test: `sleep`, `setTimeout` and `clearTimeout` that
 * wait on the simulation's clock. The harness wakes them in (due time, order of arming) order.
 */

interface Sleeper {
  readonly dueAt: number;
  readonly seq: number;
  readonly wake: () => void;
}

/** Opaque handle of a virtual `setTimeout`. */
export interface VirtualTimeout {
  readonly id: number;
}

/** The pending timers of a client, ordered by due time then by arming order. */
export class VirtualTimers {
  readonly #now: () => number;
  #sleepers: Sleeper[] = [];
  #seq = 0;
  /** Bumped by every arming, so the harness can tell a busy client from a stuck one. */
  armed = 0;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** Resolves after `ms` of virtual time (0: at the next turn of the harness). */
  sleep = (ms: number): Promise<void> => {
    if (typeof ms !== 'number' || !(ms >= 0) || !Number.isFinite(ms))
      return Promise.reject(new RangeError(`sleep: ms must be a finite number ≥ 0, got ${ms}`));
    return new Promise((resolve) => this.#arm(this.#now() + Math.ceil(ms), resolve));
  };

  /** Calls `callback` after `ms` of virtual time. */
  setTimeout = (callback: () => void, ms = 0): VirtualTimeout => {
    const seq = this.#arm(this.#now() + Math.max(0, Math.ceil(Number(ms) || 0)), callback);
    return { id: seq };
  };

  /** Cancels a virtual `setTimeout` (nothing happens for one already fired). */
  clearTimeout = (handle: VirtualTimeout | undefined): void => {
    if (handle === undefined) return;
    this.#sleepers = this.#sleepers.filter((s) => s.seq !== handle.id);
  };

  /** The earliest pending timer, removed from the queue; undefined when none is pending. */
  takeNext(): { readonly dueAt: number; readonly wake: () => void } | undefined {
    return this.#sleepers.shift();
  }

  /** Due time of the earliest pending timer. */
  get nextDue(): number | undefined {
    return this.#sleepers[0]?.dueAt;
  }

  #arm(dueAt: number, wake: () => void): number {
    const seq = this.#seq++;
    this.armed++;
    let at = this.#sleepers.length;
    while (at > 0 && (this.#sleepers[at - 1] as Sleeper).dueAt > dueAt) at--;
    this.#sleepers.splice(at, 0, { dueAt, seq, wake });
    return seq;
  }
}
