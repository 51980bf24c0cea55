/**
 * The steps a scenario has scheduled, in (time, scheduling order): steps due at the same instant
 * run in the order the script scheduled them.
 */

/** A scheduled step. */
export interface Step {
  readonly at: number;
  readonly seq: number;
  readonly run: () => void;
}

/** Scheduled steps, earliest first. */
export class StepQueue {
  readonly #steps: Step[] = [];
  #seq = 0;

  /** Schedules `run` at `at`. */
  add(at: number, run: () => void): void {
    const step = { at, seq: this.#seq++, run };
    let low = 0;
    let high = this.#steps.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((this.#steps[mid] as Step).at <= at) low = mid + 1;
      else high = mid;
    }
    this.#steps.splice(low, 0, step);
  }

  /** The earliest step, removed; `undefined` when none is left. */
  next(): Step | undefined {
    return this.#steps.shift();
  }

  get size(): number {
    return this.#steps.length;
  }
}
