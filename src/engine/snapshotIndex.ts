/**
 * Periodic immutable snapshots of state, so that `stateAt(t)` replays only a short suffix of the log
 * instead of the whole run.
 */

/** State as it stood right after the event `seq` (time `at`). */
export interface Snapshot<S> {
  readonly seq: number;
  readonly at: number;
  readonly state: S;
}

/** Snapshots in log order, at least `every` events apart. */
export class SnapshotIndex<S> {
  readonly #snapshots: Snapshot<S>[] = [];

  constructor(readonly every: number) {
    if (!Number.isSafeInteger(every) || every < 1) {
      throw new RangeError(`snapshotEvery must be a whole number ≥ 1, got ${String(every)}`);
    }
  }

  /** Number of snapshots held. */
  get size(): number {
    return this.#snapshots.length;
  }

  /** Records `state` after event `seq` unless the previous snapshot is fewer than `every` events back. */
  offer(seq: number, at: number, state: S): void {
    const last = this.#snapshots[this.#snapshots.length - 1];
    if (last !== undefined && seq - last.seq < this.every) return;
    this.#snapshots.push({ seq, at, state });
  }

  /** The latest snapshot taken at or before time `t`, or `undefined`. */
  latestAtOrBefore(t: number): Snapshot<S> | undefined {
    let lo = 0;
    let hi = this.#snapshots.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.#snapshots[mid] as Snapshot<S>).at <= t) lo = mid + 1;
      else hi = mid;
    }
    return this.#snapshots[lo - 1];
  }
}
