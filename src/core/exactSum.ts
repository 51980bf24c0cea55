/**
 * Exact summation of floating-point numbers (Shewchuk's non-overlapping partials): the total is the
 * correctly rounded value of the exact sum, so it is the same whatever order, or split into parts,
 * the numbers were added in. Parts merge exactly by adding one's partials into the other.
 */

/** A running exact sum; `partials` (plain numbers) is all it is, so it crosses any boundary. */
export class ExactSum {
  /** Non-overlapping partial sums in increasing magnitude; their exact sum is the total. */
  readonly partials: number[];

  constructor(partials: readonly number[] = []) {
    this.partials = [];
    for (const p of partials) this.add(p);
  }

  /** Adds a finite number (throws a `RangeError` for NaN or an infinity). */
  add(value: number): this {
    if (!Number.isFinite(value)) throw new RangeError(`ExactSum: cannot add ${value}`);
    let x = value;
    let kept = 0;
    for (const partial of this.partials) {
      let y = partial;
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const high = x + y;
      const low = y - (high - x);
      if (low !== 0) this.partials[kept++] = low;
      x = high;
    }
    this.partials.length = kept;
    this.partials.push(x);
    return this;
  }

  /** Adds every partial of `other` (exact: the totals add up without rounding in between). */
  merge(other: ExactSum): this {
    for (const partial of other.partials) this.add(partial);
    return this;
  }

  /** The exact sum, rounded once to the nearest number (ties to even). */
  total(): number {
    const p = this.partials;
    let j = p.length;
    if (j === 0) return 0;
    let high = p[--j] as number;
    let low = 0;
    while (j > 0) {
      const x = high;
      const y = p[--j] as number;
      high = x + y;
      low = y - (high - x);
      if (low !== 0) break;
    }
    // When the rest lies exactly halfway, the partials below decide which way to round.
    const below = j > 0 ? (p[j - 1] as number) : 0;
    if ((low < 0 && below < 0) || (low > 0 && below > 0)) {
      const y = low * 2;
      const x = high + y;
      if (y === x - high) high = x;
    }
    return high;
  }
}
