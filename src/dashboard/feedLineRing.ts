/**
 * The feed lines of a log's latest events, read, narrated and serialised once for every stream that
 * sends them: streams far behind all skip to the same last events, and streams that keep up all
 * send the newest ones, so without this each stream decoded and narrated the same events again
 * (200 readers that do not read took 200 times the work of one). A ring of the latest events'
 * lines, read from the log in runs on a miss; memory is bounded by its size.
 */
import type { SimEvent } from '../model/events.js';
import { eventItem, requestItem, type RequestRecord } from './feedItem.js';
import type { FeedNarrator } from './feedNarrator.js';

/** One line of the feed, ready to go into a message. */
export interface FeedLine {
  /** The line's `FeedItem` as JSON. */
  readonly json: string;
}

/** Events read from the log at a time on a miss (a stream reads on from where it missed). */
const READ_AHEAD = 512;

/** The lines of the latest events of one log, and of answered requests. */
export class FeedLineRing {
  readonly #read: (from: number, to: number) => Iterable<SimEvent>;
  /** Which event each slot of the ring holds (-1: none). */
  readonly #seqs: Float64Array;
  /** Each slot's line; `null` for an event that has no line (bookkeeping). */
  readonly #lines: (FeedLine | null)[];
  readonly #requestLines = new WeakMap<RequestRecord, FeedLine>();

  /**
   * @param narrator - tells the events (shared by every stream, in any order)
   * @param read - gives the log's events `[from, to)`
   * @param capacity - events whose lines are kept: at least what a stream far behind is sent
   */
  constructor(
    readonly narrator: FeedNarrator,
    read: (from: number, to: number) => Iterable<SimEvent>,
    readonly capacity: number,
  ) {
    this.#read = read;
    this.#seqs = new Float64Array(capacity).fill(-1);
    this.#lines = new Array<FeedLine | null>(capacity).fill(null);
  }

  /** The line of event `seq` (`null`: it has none), of a log `end` events long. */
  event(seq: number, end: number): FeedLine | null {
    const slot = seq % this.capacity;
    // Never more than the ring holds: the line asked for must still be there.
    if (this.#seqs[slot] !== seq)
      this.#fill(seq, Math.min(end, seq + Math.min(READ_AHEAD, this.capacity)));
    return this.#lines[slot] as FeedLine | null;
  }

  /** The line of an answered request. */
  request(request: RequestRecord): FeedLine {
    let line = this.#requestLines.get(request);
    if (line === undefined) {
      const item = requestItem(request);
      line = { json: JSON.stringify(item) };
      this.#requestLines.set(request, line);
    }
    return line;
  }

  /** Reads, narrates and keeps the lines of events `[from, to)`. */
  #fill(from: number, to: number): void {
    for (const event of this.#read(from, to)) {
      const text = this.narrator.narrate(event);
      const slot = event.seq % this.capacity;
      this.#seqs[slot] = event.seq;
      this.#lines[slot] =
        text === undefined ? null : { json: JSON.stringify(eventItem(event, text)) };
    }
  }
}
