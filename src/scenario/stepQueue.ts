/**
 * The steps a scenario has scheduled, in (time, scheduling order): steps due at the same instant
 * run in the order the script scheduled them.
 */

/** A scheduled step. */
export interface Step {
  readonly at: number;
  readonly seq: number;
  readonly run: () => void;
  /**
   * Whether the run must reach it: a step scheduled with `at` or an operation wait must, a tick of
   * an `every` need not (a repeating step simply stops with the scenario).
   */
  readonly required: boolean;
}

/** Scheduled steps, earliest first. */
export class StepQueue {
  readonly #steps: Step[] = [];
  #seq = 0;

  /** Schedules `run` at `at`. */
  add(at: number, run: () => void, required = true): void {
    const step = { at, seq: this.#seq++, run, required };
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

  /** The steps still scheduled that the run had to reach, earliest first. */
  requiredLeft(): Step[] {
    return this.#steps.filter((step) => step.required);
  }

  get size(): number {
    return this.#steps.length;
  }
}
