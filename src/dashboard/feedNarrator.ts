/**
 * Narration for the dashboard's streams: one narrator reads the log in order for every reader,
 * including readers behind it, so a page that resumes far back does not make it read everything
 * again.
 */
import type { SimEvent } from '../model/events.js';
import { createNarrator, type Narrator } from '../projection/narrator.js';

/** Narrates events of one log in any order readers ask for them. */
export class FeedNarrator {
  readonly #narrator: Narrator = createNarrator();
  /** Events read so far: the next one in order has this sequence number. */
  #readTo = 0;

  /** `read(from, to)` gives the log's events `[from, to)`, to catch up on the ones skipped. */
  constructor(readonly read: (from: number, to: number) => Iterable<SimEvent>) {}

  /**
   * The line of `event` (`undefined` for bookkeeping). An event behind the narrator is told by it
   * as it is: what it remembers (an operation's action, by its unique id) is what lines after an
   * event need, so reading on never changes an earlier line.
   */
  narrate(event: SimEvent): string | undefined {
    if (event.seq > this.#readTo)
      for (const earlier of this.read(this.#readTo, event.seq)) this.#narrator(earlier);
    this.#readTo = Math.max(this.#readTo, event.seq + 1);
    return this.#narrator(event);
  }
}
