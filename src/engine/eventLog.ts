/**
 * The append-only event log: the single source of truth from which state, snapshots, replays and
 * reports are derived.
 */
import type { LoggedEvent } from './loggedEvent.js';

/** Append-only, iterable sequence of events; `seq` equals the index. */
export class EventLog<E extends LoggedEvent> implements Iterable<E> {
  readonly #events: E[] = [];

  /** Number of events, which is also the `seq` the next event gets. */
  get length(): number {
    return this.#events.length;
  }

  /** Appends one event whose `seq` must equal `length`. */
  append(event: E): void {
    if (event.seq !== this.#events.length) {
      throw new RangeError(
        `EventLog.append: seq ${event.seq} where ${this.#events.length} was expected`,
      );
    }
    this.#events.push(event);
  }

  /** The event with sequence number `seq`, or `undefined`. */
  get(seq: number): E | undefined {
    return this.#events[seq];
  }

  /** The last event, or `undefined` for an empty log. */
  last(): E | undefined {
    return this.#events[this.#events.length - 1];
  }

  /** Events with `from <= seq < to`, as a new array. */
  slice(from = 0, to = this.#events.length): E[] {
    return this.#events.slice(from, to);
  }

  /** Index of the first event with `at > t` (binary search; events are in time order). */
  firstAfter(t: number): number {
    let lo = 0;
    let hi = this.#events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.#events[mid] as E).at <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  [Symbol.iterator](): Iterator<E> {
    return this.#events[Symbol.iterator]();
  }

  /** The log as JSON Lines, one event a line, each line ending in a newline. */
  *jsonLines(): Generator<string> {
    for (const event of this.#events) yield `${JSON.stringify(event)}\n`;
  }

  /** The whole log as one JSON Lines string. */
  toJSONL(): string {
    let out = '';
    for (const line of this.jsonLines()) out += line;
    return out;
  }
}
