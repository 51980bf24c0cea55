/**
 * Narration for the dashboard's streams: one narrator reads the log in order for every reader,
 * including readers behind it, so a page that resumes far back does not make it read everything
 * again. Far behind the first line asked for (a first page on a long log), it can be made to read
 * on a part at a time (`readOn`), so that the server does so in slices.
 */
import type { SimEvent } from '../model/events.js';
import { createNarrator, type Narrator } from '../projection/narrator.js';

/** Narrates events of one log in any order readers ask for them. */
export class FeedNarrator {
  readonly #narrator: Narrator;
  /** Events read so far: the next one in order has this sequence number. */
  #readTo = 0;

  /**
   * `read(from, to)` gives the log's events `[from, to)`, to catch up on the ones skipped. Events
   * asked for are at most `window` behind the furthest one asked for before them: what the
   * narrator remembers of ended operations goes back that far, and no further.
   */
  constructor(
    readonly read: (from: number, to: number) => Iterable<SimEvent>,
    window: number,
  ) {
    this.#narrator = createNarrator({ rememberEndedFor: window });
  }

  /**
   * The line of `event` (`undefined` for bookkeeping). An event behind the narrator (within its
   * window) is told by it as it is: what it remembers (an operation's action, by its unique id) is
   * what lines after an event need, so reading on never changes an earlier line.
   */
  narrate(event: SimEvent): string | undefined {
    if (event.seq > this.#readTo)
      for (const earlier of this.read(this.#readTo, event.seq)) this.#narrator(earlier);
    this.#readTo = Math.max(this.#readTo, event.seq + 1);
    return this.#narrator(event);
  }

  /** How many of the log's events before `seq` it has yet to read. */
  behind(seq: number): number {
    return Math.max(0, seq - this.#readTo);
  }

  /** Reads on toward event `to`, at most `count` events; whether it has got there. */
  readOn(count: number, to: number): boolean {
    const end = Math.min(to, this.#readTo + count);
    if (end > this.#readTo) for (const event of this.read(this.#readTo, end)) this.#narrator(event);
    this.#readTo = Math.max(this.#readTo, end);
    return this.#readTo >= to;
  }
}
