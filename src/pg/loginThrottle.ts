/**
 * Slows password guessing, as Postgres's `auth_delay` does: after a few failed logins from one
 * address within a minute, each further failure is answered only after a delay that grows with
 * them (up to a few seconds), so one address tries at most a few passwords a second. A login that
 * succeeds clears its address's record. Wall-clock time: it meets the clients, not the simulation.
 */

/** Failures from one address that cost nothing. */
const FREE_FAILURES = 10;
/** The delay added by each failure past the free ones, and the most it grows to. */
const STEP_MS = 200;
const MOST_MS = 3_000;
/** How long a failure counts. */
const WINDOW_MS = 60_000;
/** Addresses remembered at most (the oldest forgotten first). */
const MOST_ADDRESSES = 10_000;

/** Failed logins by address. */
export class LoginThrottle {
  readonly #failures = new Map<string, number[]>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** A login from `address` failed: how long to wait before saying so, in milliseconds. */
  failed(address: string): number {
    const now = this.#now();
    const recent = (this.#failures.get(address) ?? []).filter((at) => now - at < WINDOW_MS);
    recent.push(now);
    this.#failures.delete(address);
    this.#failures.set(address, recent.slice(-FREE_FAILURES - MOST_MS / STEP_MS));
    if (this.#failures.size > MOST_ADDRESSES)
      this.#failures.delete(this.#failures.keys().next().value as string);
    return Math.min(MOST_MS, Math.max(0, recent.length - FREE_FAILURES) * STEP_MS);
  }

  /** A login from `address` succeeded. */
  succeeded(address: string): void {
    this.#failures.delete(address);
  }
}
