/**
 * When the page draws its figures again: at once when asked, unless a drawing is under way or just
 * ended, in which case once more after it. A long run costs the server more per drawing, so the
 * page waits four times as long as the last one took (a quarter of a second at least): the server
 * keeps serving everything else.
 */

/** Wall ms the page waits after a drawing at least. */
const REST_MS = 250;

/** The wall clock the pacer reads and sets timers on. */
export interface WallClock {
  now(): number;
  later(run: () => void, ms: number): void;
}

/** Paces the drawings of the page's figures. */
export class RedrawPacer {
  #busy = false;
  #again = false;

  /** `draw` draws once; `failed` is told why one failed. */
  constructor(
    readonly draw: () => Promise<void>,
    readonly failed: (error: unknown) => void,
    readonly clock: WallClock = {
      now: () => performance.now(),
      later: (run, ms) => void setTimeout(run, ms),
    },
  ) {}

  /** Asks for a drawing. */
  request(): void {
    if (this.#busy) {
      this.#again = true;
      return;
    }
    this.#busy = true;
    const began = this.clock.now();
    void this.draw()
      .catch(this.failed)
      .finally(() => {
        const took = this.clock.now() - began;
        this.clock.later(
          () => {
            this.#busy = false;
            if (this.#again) {
              this.#again = false;
              this.request();
            }
          },
          Math.max(REST_MS, 4 * took),
        );
      });
  }
}
