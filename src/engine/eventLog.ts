/**
 * The append-only event log: the single source of truth from which state, snapshots, replays and
 * reports are derived. Events are stored encoded in paged typed arrays (a few bytes per field
 * instead of a heap object each), and decoded into fresh objects when read. Per event it keeps a
 * 16-bit shape and a 32-bit time (milliseconds past an epoch base, a new base every ~49 days or when
 * time is not whole); where an event's words start is kept for every 32nd event and counted from
 * the shapes in between.
 */
import { EventCodec } from './eventCodec.js';
import type { LoggedEvent } from './loggedEvent.js';
import { PagedUint16, PagedUint32 } from './pagedArrays.js';

const CHECKPOINT_BITS = 5;
const CHECKPOINT_MASK = (1 << CHECKPOINT_BITS) - 1;

/** Append-only, iterable sequence of events; `seq` equals the index. */
export class EventLog<E extends LoggedEvent> implements Iterable<E> {
  readonly #codec = new EventCodec();
  readonly #shapes = new PagedUint16();
  /** `at` minus the base of its epoch. */
  readonly #ats = new PagedUint32();
  /** First seq and base time of each epoch, in order. */
  readonly #epochSeqs: number[] = [];
  readonly #epochBases: number[] = [];
  /** Base of the current epoch (NaN before the first event, so the first starts one). */
  #base = Number.NaN;
  /** Where the words of event `32 * i` start. */
  readonly #checkpoints = new PagedUint32();
  readonly #values = new PagedUint32();

  /** Number of events, which is also the `seq` the next event gets. */
  get length(): number {
    return this.#shapes.length;
  }

  /** Virtual time of the last event (`-Infinity` for an empty log). */
  get lastAt(): number {
    return this.length === 0 ? -Infinity : this.atOf(this.length - 1);
  }

  /** Bytes held by the encoded log, and how many distinct shapes and strings it has. */
  get footprint(): { readonly bytes: number; readonly shapes: number; readonly strings: number } {
    const bytes =
      this.#shapes.bytes + this.#ats.bytes + this.#checkpoints.bytes + this.#values.bytes;
    return { bytes, ...this.#codec.stats };
  }

  /** Appends one event whose `seq` must equal `length`. The log keeps an encoded copy. */
  append(event: E): void {
    if (event.seq !== this.length) {
      throw new RangeError(`EventLog.append: seq ${event.seq} where ${this.length} was expected`);
    }
    const seq = this.length;
    if ((seq & CHECKPOINT_MASK) === 0) this.#checkpoints.push(this.#values.length);
    let delta = event.at - this.#base;
    if (delta >>> 0 !== delta) {
      this.#base = event.at;
      this.#epochSeqs.push(seq);
      this.#epochBases.push(event.at);
      delta = 0;
    }
    this.#ats.push(delta);
    this.#shapes.push(this.#codec.encode(event, this.#values));
  }

  /** The event with sequence number `seq` (a fresh object), or `undefined`. */
  get(seq: number): E | undefined {
    if (!Number.isInteger(seq) || seq < 0 || seq >= this.length) return undefined;
    return this.#decodeAt(seq, this.#offsetOf(seq));
  }

  /** Virtual time of the event `seq`. */
  atOf(seq: number): number {
    const seqs = this.#epochSeqs;
    let lo = 0;
    let hi = seqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((seqs[mid] as number) <= seq) lo = mid + 1;
      else hi = mid;
    }
    return (this.#epochBases[lo - 1] as number) + this.#ats.get(seq);
  }

  #offsetOf(seq: number): number {
    let offset = this.#checkpoints.get(seq >>> CHECKPOINT_BITS);
    for (let i = seq & ~CHECKPOINT_MASK; i < seq; i++)
      offset += this.#codec.wordsOf(this.#shapes.get(i));
    return offset;
  }

  #decodeAt(seq: number, offset: number): E {
    return this.#codec.decode(
      this.#shapes.get(seq),
      this.#values,
      offset,
      this.atOf(seq),
      seq,
    ) as unknown as E;
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
      if (this.atOf(mid) <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  *[Symbol.iterator](): Iterator<E> {
    let offset = 0;
    for (let seq = 0; seq < this.length; seq++) {
      yield this.#decodeAt(seq, offset);
      offset += this.#codec.wordsOf(this.#shapes.get(seq));
    }
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
