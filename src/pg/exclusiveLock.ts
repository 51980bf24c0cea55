/**
 * A first-come, first-served lock: one holder at a time, the others wait in the order they asked.
 * An embedded Postgres serves one session, so the clients of a database take turns, each holding
 * it from its first message until its transaction ends.
 */

/** Releases a lock; calling it again does nothing. */
export type Release = () => void;

/** A FIFO lock. */
export class ExclusiveLock {
  #held = false;
  readonly #waiting: Array<(release: Release) => void> = [];

  /** Whether someone holds it now. */
  get held(): boolean {
    return this.#held;
  }

  /** Resolves with a release function once it is this caller's turn. */
  acquire(): Promise<Release> {
    return new Promise((resolve) => {
      if (!this.#held) {
        this.#held = true;
        resolve(this.#releaser());
      } else this.#waiting.push(resolve);
    });
  }

  /** Runs `work` holding the lock (once it is this caller's turn), and lets it go after. */
  async holding<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }

  #releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next === undefined) this.#held = false;
      else next(this.#releaser());
    };
  }
}
