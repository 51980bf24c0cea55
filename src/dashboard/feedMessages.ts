/**
 * The feed's messages, made and encoded once for every stream at the same cursor. A message covers
 * events of one aligned chunk of the log (`[k·CHUNK, (k+1)·CHUNK)`, or up to the log's end for
 * the newest) and the answered requests that fall among them, up to `MESSAGE_TEXT` of lines, so streams that keep up, and streams
 * that start far behind (they skip to a chunk's start), ask for the very same messages: 200 streams
 * cost one message's making, then 200 hand-overs of the same bytes. Without this each stream
 * joined and encoded its own copy of the same text, which held the event loop for most of a soak's
 * minute. Memory is bounded: two generations of at most `CACHE_BYTES` each.
 */
import type { FeedLine, FeedLineRing } from './feedLineRing.js';
import type { PlacedRequest } from './runReportBuilder.js';
import { sseMessageOfJson } from './sseMessage.js';
import { formatCursor } from './streamCursor.js';

/** Events of the log one message covers at most; messages start and end at its multiples. */
export const CHUNK_EVENTS = 128;
/**
 * Characters of lines a message ends at (its last line may take it past: one request's path at
 * most); where it ends depends only on where it starts, so streams at one cursor still share it.
 */
const MESSAGE_TEXT = 16 * 1024;
/** Bytes of messages one generation of the cache holds before the older one is let go. */
const CACHE_BYTES = 4 * 2 ** 20;

/** Where a stream is: the next event and the next answered request it is to be sent. */
export interface FeedPosition {
  readonly seq: number;
  readonly req: number;
}

/** The answered requests the feed keeps, oldest first, and how many older ones it let go. */
export interface KeptRequests {
  readonly kept: readonly PlacedRequest[];
  readonly dropped: number;
}

/** The next message of a stream, and where the stream is once it has it. */
export interface FeedMessage {
  /** The message as sent; `undefined` when the span has no line (its events are bookkeeping). */
  readonly bytes: Uint8Array | undefined;
  readonly after: FeedPosition;
}

/** The messages of one log (one epoch of a served simulation). */
export class FeedMessages {
  readonly #lines: FeedLineRing;
  readonly #epoch: string;
  readonly #encoder = new TextEncoder();
  #current = new Map<string, FeedMessage>();
  #previous = new Map<string, FeedMessage>();
  #currentBytes = 0;

  /** Messages of the lines `lines` makes, with ids of the epoch `epoch`. */
  constructor(lines: FeedLineRing, epoch: string) {
    this.#lines = lines;
    this.#epoch = epoch;
  }

  /**
   * The message that follows `at` on a log `end` events long with `requests` answered, or
   * `undefined` when `at` has had everything.
   */
  next(at: FeedPosition, end: number, requests: KeptRequests): FeedMessage | undefined {
    if (at.seq >= end && !hasRequestUpTo(at.req, end, requests)) return undefined;
    const to = Math.min(end, (Math.floor(at.seq / CHUNK_EVENTS) + 1) * CHUNK_EVENTS);
    // What a message holds never changes once known (later requests fall at the log's end or
    // after), and the cursor after it says how far it went. The newest message is keyed by the
    // log's end too: one made when the log was shorter would do, but would leave its readers at
    // an unaligned cursor of their own, where the next messages are made for them alone.
    const key = to === end ? `t${at.seq}.${at.req}.${end}` : `c${at.seq}.${at.req}`;
    const found = this.#current.get(key) ?? this.#previous.get(key);
    if (found !== undefined) return found;
    const made = this.#make(at, to, end, requests);
    this.#keep(key, made);
    return made;
  }

  /**
   * The message of events `[at.seq, to)` and the requests among them (and those placed at the end
   * of a log `end` long, when `to` is that end).
   */
  #make(at: FeedPosition, to: number, end: number, requests: KeptRequests): FeedMessage {
    const lines: string[] = [];
    let length = 0;
    let seq = at.seq;
    let req = at.req;
    const add = (line: FeedLine) => {
      lines.push(line.json);
      length += line.json.length;
    };
    /** Adds the requests placed up to `position`; false once the message is long enough. */
    const requestsUpTo = (position: number): boolean => {
      for (;;) {
        if (length >= MESSAGE_TEXT) return false;
        const request = requests.kept[req - requests.dropped];
        if (request === undefined || request.position > position) return true;
        add(this.#lines.request(request));
        req++;
      }
    };
    for (; seq < to && length < MESSAGE_TEXT; seq++) {
      if (!requestsUpTo(seq)) break;
      const line = this.#lines.event(seq, end);
      if (line !== null) add(line);
    }
    if (seq === end) requestsUpTo(end);
    const after = { seq, req };
    if (lines.length === 0) return { bytes: undefined, after };
    const id = formatCursor({ epoch: this.#epoch, ...after });
    const message = sseMessageOfJson('feed', `[${lines.join(',')}]`, id);
    return { bytes: this.#encoder.encode(message), after };
  }

  #keep(key: string, message: FeedMessage): void {
    if (this.#currentBytes >= CACHE_BYTES) {
      this.#previous = this.#current;
      this.#current = new Map();
      this.#currentBytes = 0;
    }
    this.#current.set(key, message);
    this.#currentBytes += (message.bytes?.byteLength ?? 0) + key.length + 64;
  }
}

/** Whether a request from number `req` on is placed at or before `position`. */
function hasRequestUpTo(req: number, position: number, requests: KeptRequests): boolean {
  const request = requests.kept[req - requests.dropped];
  return request !== undefined && request.position <= position;
}
