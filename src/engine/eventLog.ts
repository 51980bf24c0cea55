/**
 * The append-only event log: the single source of truth from which state, snapshots, replays and
 * reports are derived. Events are stored encoded in paged typed arrays (a few bytes per field
 * instead of a heap object each), and decoded into fresh objects when read.
 */
import { EventCodec } from './eventCodec.js';
import type { LoggedEvent } from './loggedEvent.js';
import { PagedFloat64, PagedUint16, PagedUint32 } from './pagedArrays.js';

/** Append-only, iterable sequence of events; `seq` equals the index. */
export class EventLog<E extends LoggedEvent> implements Iterable<E> {
  readonly #codec = new EventCodec();
  readonly #shapes = new PagedUint16();
  readonly #ats = new PagedFloat64();
  readonly #offsets = new PagedUint32();
  readonly #values = new PagedUint32();

  /** Number of events, which is also the `seq` the next event gets. */
  get length(): number {
    return this.#shapes.length;
  }

  /** Virtual time of the last event (`-Infinity` for an empty log). */
  get lastAt(): number {
    return this.length === 0 ? -Infinity : this.#ats.get(this.length - 1);
  }

  /** Bytes held by the encoded log, and how many distinct shapes and strings it has. */
  get footprint(): { readonly bytes: number; readonly shapes: number; readonly strings: number } {
    const bytes = this.#shapes.bytes + this.#ats.bytes + this.#offsets.bytes + this.#values.bytes;
    return { bytes, ...this.#codec.stats };
  }

  /** Appends one event whose `seq` must equal `length`. The log keeps an encoded copy. */
  append(event: E): void {
    if (event.seq !== this.length) {
      throw new RangeError(`EventLog.append: seq ${event.seq} where ${this.length} was expected`);
    }
    this.#offsets.push(this.#values.length);
    this.#ats.push(event.at);
    this.#shapes.push(this.#codec.encode(event, this.#values));
  }

  /** The event with sequence number `seq` (a fresh object), or `undefined`. */
  get(seq: number): E | undefined {
    if (!Number.isInteger(seq) || seq < 0 || seq >= this.length) return undefined;
    return this.#codec.decode(
      this.#shapes.get(seq),
      this.#values,
      this.#offsets.get(seq),
      this.#ats.get(seq),
      seq,
    ) as unknown as E;
  }

  /** Virtual time of the event `seq`. */
  atOf(seq: number): number {
    return this.#ats.get(seq);
  }

  /** The last event, or `undefined` for an empty log. */
  last(): E | undefined {
    return this.get(this.length - 1);
  }

  /** Events with `from <= seq < to`, as a new array. */
  slice(from = 0, to = this.length): E[] {
    const out: E[] = [];
    for (let seq = Math.max(0, from); seq < Math.min(to, this.length); seq++)
      out.push(this.get(seq) as E);
    return out;
  }

  /** Index of the first event with `at > t` (binary search; events are in time order). */
  firstAfter(t: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#ats.get(mid) <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  *[Symbol.iterator](): Iterator<E> {
    for (let seq = 0; seq < this.length; seq++) yield this.get(seq) as E;
  }

  /** The log as JSON Lines, one event a line, each line ending in a newline. */
  *jsonLines(): Generator<string> {
    for (const event of this) yield `${JSON.stringify(event)}\n`;
  }

  /** The whole log as one JSON Lines string. */
  toJSONL(): string {
    let out = '';
    for (const line of this.jsonLines()) out += line;
    return out;
  }
}
