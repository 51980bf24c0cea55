/**
 * The pace of a served clock: the clock mode in force and the wall it follows. Each request catches
 * virtual time up with the wall, a bounded amount at a time; after a jump past the wall, or time
 * that is not the service's, the pace starts afresh from where the clock is.
 */
import { ClockDriver, type ClockMode } from './clockMode.js';
import { errorAnswer, type Answer } from './errorTable.js';
import type { ServedSimulation } from './servedSimulation.js';

/** Timers one request may fire to catch a paced clock up with the wall. */
const SYNC_TIMERS = 50_000;

/** Paces one served simulation's clock by the wall (or not at all, in manual mode). */
export class ClockPacer {
  #mode: ClockMode;
  #driver: ClockDriver;
  readonly #wallNow: (() => number) | undefined;

  /**
   * @param mode - how the clock moves at first
   * @param sim - the simulation whose clock is paced from where it is now
   * @param wallNow - the wall clock; none: served in process, manual only
   */
  constructor(mode: ClockMode, sim: ServedSimulation, wallNow: (() => number) | undefined) {
    this.#mode = mode;
    this.#wallNow = wallNow;
    this.#driver = this.#newDriver(sim);
  }

  /** How the clock moves now. */
  get mode(): ClockMode {
    return this.#mode;
  }

  /**
   * Changes how the clock moves from now on, from where `sim`'s clock is; an answer when it cannot
   * (a paced clock without a wall clock to follow).
   */
  setMode(mode: ClockMode, sim: ServedSimulation): Answer | undefined {
    if (mode.rate > 0 && this.#wallNow === undefined)
      return errorAnswer(
        'invalid_input',
        'a paced clock needs a wall clock: this simulation is served in process (manual only)',
      );
    this.#mode = mode;
    this.#driver = this.#newDriver(sim);
    return undefined;
  }

  /** Follows the wall from now on, from where `sim`'s clock is: the wall time gone by is skipped. */
  restart(sim: ServedSimulation): void {
    this.#driver = this.#newDriver(sim);
  }

  /**
   * Moves `sim`'s virtual time toward where the wall clock says it is (paced modes), doing at most
   * a bounded amount of work: a simulation slower than its pace lags behind instead of holding the
   * request.
   */
  catchUp(sim: ServedSimulation): void {
    const target = this.#driver.target();
    if (target !== undefined && target > sim.now()) sim.advanceToward(target, SYNC_TIMERS);
  }

  /**
   * After a request that moved virtual time past the wall (`run_until_idle`), pacing goes on from
   * there instead of freezing the clock until the wall catches up.
   */
  keepPace(sim: ServedSimulation): void {
    const target = this.#driver.target();
    if (target !== undefined && target < sim.now()) this.#driver = this.#newDriver(sim);
  }

  #newDriver(sim: ServedSimulation): ClockDriver {
    return new ClockDriver(this.#mode, sim.now(), this.#wallNow);
  }
}
