/**
 * Periodic immutable snapshots of state, so that `stateAt(t)` replays only a short suffix of the log
 * instead of the whole run. Memory stays bounded on long runs: when `maxKept` snapshots are held,
 * every other one is dropped and the spacing doubles, so they stay evenly spread over the run.
 */

/** State as it stood right after the event `seq` (time `at`). */
export interface Snapshot<S> {
  readonly seq: number;
  readonly at: number;
  readonly state: S;
}

/** Default most snapshots held at once. */
const DEFAULT_MAX_SNAPSHOTS = 8;

/** Snapshots in log order, at least `spacing` events apart (`every` at first). */
export class SnapshotIndex<S> {
  #snapshots: Snapshot<S>[] = [];
  #spacing: number;

  constructor(
    readonly every: number,
    readonly maxKept = DEFAULT_MAX_SNAPSHOTS,
  ) {
    if (!Number.isSafeInteger(every) || every < 1) {
      throw new RangeError(`snapshotEvery must be a whole number ≥ 1, got ${String(every)}`);
    }
    if (!Number.isSafeInteger(maxKept) || maxKept < 2) {
      throw new RangeError(`maxKept must be a whole number ≥ 2, got ${String(maxKept)}`);
    }
    this.#spacing = every;
  }

  /** Events between kept snapshots now (`every`, doubled each time the index thinned out). */
  get spacing(): number {
    return this.#spacing;
  }

  /** Number of snapshots held. */
  get size(): number {
    return this.#snapshots.length;
  }

  /** Records `state` after event `seq` unless the previous snapshot is fewer than `spacing` events back. */
  offer(seq: number, at: number, state: S): void {
    const last = this.#snapshots[this.#snapshots.length - 1];
    if (last !== undefined && seq - last.seq < this.#spacing) return;
    this.#snapshots.push({ seq, at, state });
    if (this.#snapshots.length > this.maxKept) {
      this.#snapshots = this.#snapshots.filter((_, i) => i % 2 === 0);
      this.#spacing *= 2;
    }
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
