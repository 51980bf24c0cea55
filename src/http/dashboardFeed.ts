/**
 * The live side of `serve`'s dashboard: one server-sent events stream per open page, fed from the
 * served simulation's `events$` (woken by it, read from the log, so a stream can start anywhere)
 * and from the requests the core answered. Every message carries the cursor after it as its id, so
 * a page that lost its connection resumes with `Last-Event-ID` without losing or repeating a line.
 * Each stream holds at most `STREAM_BUFFER_BYTES` unread (plus one message): past that the feed
 * waits for its reader, reading on from the log when it takes more. A reader that takes nothing
 * for a whole tick is sent `resync` and closed, and dropped if it does not take even that. The
 * lines are made once for every stream (`FeedLineRing`); a narrator far behind the first line asked
 * for reads on in slices, between other requests.
 */
import type { Subscription } from 'rxjs';
import { FeedLineRing } from '../dashboard/feedLineRing.js';
import { CHUNK_EVENTS, FeedMessages } from '../dashboard/feedMessages.js';
import { FeedNarrator } from '../dashboard/feedNarrator.js';
import type { PlacedRequest } from '../dashboard/runReportBuilder.js';
import { SSE_HEARTBEAT, sseMessage } from '../dashboard/sseMessage.js';
import { formatCursor, parseCursor, type StreamCursor } from '../dashboard/streamCursor.js';
import type { AnsweredRequest, HttpCore } from '../service/httpCore.js';
import { runSliced } from '../service/slicedRun.js';
import type { Simulation } from '../simulation/simulation.js';
import { StreamDropped } from './streamDropped.js';

/** Requests kept for streams that resume and for the report (the oldest go first). */
const REQUESTS_KEPT = 10_000;
/** Events a stream is sent at most when it starts or resumes far behind; older ones are skipped. */
const BACKLOG = 5_000;
/**
 * Events the narrator may read in one go to reach the first line a stream is sent (a few ms); when
 * it is further behind (a first page on a long log, or streams all full while a clock move ran),
 * it reads on in slices between other requests.
 */
const READ_IN_ONE_GO = 5_000;
/** Wall ms between a change and the messages that tell it (changes in between go together). */
const FLUSH_MS = 50;
/**
 * Wall ms the streams are sent what is new for in one turn of the event loop; the rest are sent
 * theirs in the next turns (200 streams in one go held the loop 50-290 ms in the soak).
 */
const ROUND_MS = 5;
/** Wall ms between a paced clock's catch-ups while pages watch, and between checks of the streams. */
const TICK_MS = 1_000;
/** Ticks between heartbeats. */
const HEARTBEAT_TICKS = 15;
/**
 * Bytes a stream may hold that its reader has not taken (beyond what the socket holds): past them
 * it is sent nothing more until its reader takes some.
 */
export const STREAM_BUFFER_BYTES = 64 * 1024;

/** What the feed holds for its streams: the server's own accounting, for tests and operators. */
export interface FeedHolding {
  /** Streams being fed. */
  readonly open: number;
  /** Streams sent `resync` and closed, whose reader has not yet taken the rest. */
  readonly closing: number;
  /** Bytes queued for each stream, open and closing, that its reader has not taken. */
  readonly queuedBytes: readonly number[];
  /** Whether the feed listens to the simulation's `events$`. */
  readonly listening: boolean;
}

interface FeedStream {
  readonly controller: ReadableStreamDefaultController<Uint8Array>;
  /** Whether its reader took anything since the last tick. */
  pulled: boolean;
  /** Whether it was closed for falling behind. */
  closing: boolean;
  seq: number;
  req: number;
  /** The clock message last sent, so an unchanged clock is not sent again. */
  clock: string;
  /** Whether it is being sent what is new (a pull meanwhile must not send it all again). */
  flushing: boolean;
}

/** The event streams of the dashboard of one server. */
export class DashboardFeed {
  readonly #core: HttpCore;
  readonly #instance: string;
  readonly #streams = new Set<FeedStream>();
  /** Streams closed for falling behind whose rest their reader has not taken yet. */
  readonly #closing = new Set<FeedStream>();
  readonly #encoder = new TextEncoder();
  #generation = 0;
  /** Requests answered since the simulation was last replaced: the kept ones, and how many went. */
  #requests: PlacedRequest[] = [];
  #requestsDropped = 0;
  #subscription: Subscription | undefined;
  /** The lines of the latest events, made once for every stream. */
  #lines: FeedLineRing;
  /** The messages of those lines, made once for every stream. */
  #messages: FeedMessages;
  /** The last clock message, encoded once for every stream. */
  #clock = { shown: '', bytes: new Uint8Array() };
  /** The lines whose narrator is reading on in slices, if any. */
  #readingOn: FeedLineRing | undefined;
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #ticker: ReturnType<typeof setInterval> | undefined;
  #ticks = 0;
  #closed = false;

  /**
   * Streams of the simulation `core` serves; `instance` names this server's run of it (cursors of
   * another instance, a restarted server's, start the reader afresh).
   */
  constructor(core: HttpCore, instance: string) {
    this.#core = core;
    this.#instance = instance;
    this.#lines = this.#newLines();
    this.#messages = new FeedMessages(this.#lines, this.epoch);
    core.onReplaced(() => this.#replaced());
  }

  /** The epoch cursors name: this server and how many times its simulation was replaced. */
  get epoch(): string {
    return `${this.#instance}-${this.#generation}`;
  }

  /** Hears of a request the core answered (`HttpCore`'s `onAnswered`). */
  answered(request: AnsweredRequest): void {
    if (this.#closed) return;
    this.#requests.push(request);
    if (this.#requests.length > REQUESTS_KEPT) {
      const excess = this.#requests.length - REQUESTS_KEPT;
      this.#requests.splice(0, excess);
      this.#requestsDropped += excess;
    }
    this.#wake();
  }

  /** What the feed holds now for its readers (bounded by `STREAM_BUFFER_BYTES` a stream). */
  get holding(): FeedHolding {
    const all = [...this.#streams, ...this.#closing];
    return {
      open: this.#streams.size,
      closing: this.#closing.size,
      queuedBytes: all.map((stream) => queuedBytes(stream)),
      listening: this.#subscription !== undefined,
    };
  }

  /** The requests kept, oldest first, with where they fall in the log. */
  get requests(): readonly PlacedRequest[] {
    return this.#requests;
  }

  /**
   * A new stream for a page that last saw `lastEventId` (none: from the start). A cursor of another
   * epoch, or one this server cannot have sent, starts it afresh with a `reset` message.
   */
  open(lastEventId: string | null): ReadableStream<Uint8Array> {
    let stream: FeedStream | undefined;
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          if (this.#closed) {
            controller.close();
            return;
          }
          const cursor = parseCursor(lastEventId);
          const resumes = cursor !== undefined && this.#canResume(cursor);
          stream = {
            controller,
            pulled: false,
            closing: false,
            seq: resumes ? cursor.seq : 0,
            req: resumes ? cursor.req : 0,
            clock: '',
            flushing: false,
          };
          this.#streams.add(stream);
          if (lastEventId !== null && !resumes) this.#send(stream, sseMessage('reset', {}));
          this.#watch();
          this.#flush(stream);
        },
        // Its reader took some: it is sent what it did not get while it was full, with the next
        // round (in this call, a reader whose socket takes all, as one that never reads does
        // until the kernel's buffers fill, kept the server making its lines for megabytes).
        pull: () => {
          if (stream === undefined || !this.#streams.has(stream)) return;
          stream.pulled = true;
          this.#wake();
        },
        cancel: () => {
          if (stream !== undefined) this.#drop(stream);
        },
      },
      { highWaterMark: STREAM_BUFFER_BYTES, size: (chunk) => chunk.byteLength },
    );
  }

  /** Ends every stream and stops listening (the server is stopping). */
  close(): void {
    this.#closed = true;
    for (const stream of [...this.#streams, ...this.#closing]) {
      this.#drop(stream);
      try {
        stream.controller.close();
      } catch {
        // Already closed by its reader.
      }
    }
  }

  #sim(): Simulation {
    // The server gives its core only Simulations (see SimServer).
    return this.#core.sim as Simulation;
  }

  #canResume(cursor: StreamCursor): boolean {
    return (
      cursor.epoch === this.epoch &&
      cursor.seq <= this.#sim().log.length &&
      cursor.req <= this.#requestsDropped + this.#requests.length
    );
  }

  /**
   * Listens to the simulation while any page watches, and ticks while any stream is held (closing
   * ones wait for a tick to be dropped); neither otherwise.
   */
  #watch(): void {
    if (this.#streams.size === 0) {
      this.#subscription?.unsubscribe();
      this.#subscription = undefined;
    } else this.#subscription ??= this.#sim().events$.subscribe(() => this.#wake());
    if (this.#streams.size === 0 && this.#closing.size === 0) {
      if (this.#ticker !== undefined) clearInterval(this.#ticker);
      this.#ticker = undefined;
      return;
    }
    if (this.#ticker === undefined) {
      this.#ticker = setInterval(() => this.#tick(), TICK_MS);
      this.#ticker.unref();
    }
  }

  #drop(stream: FeedStream): void {
    this.#streams.delete(stream);
    this.#closing.delete(stream);
    this.#watch();
  }

  /**
   * `stream`'s reader took nothing of its full buffer for a whole tick: it is sent no more but
   * `resync` (no id: the reader's last id is where it resumes) and closed. It stays held, bounded,
   * until its reader takes the rest, or is dropped at the next tick.
   */
  #fellBehind(stream: FeedStream): void {
    this.#streams.delete(stream);
    this.#closing.add(stream);
    stream.closing = true;
    try {
      stream.controller.enqueue(this.#encoder.encode(sseMessage('resync', { reason: 'behind' })));
      stream.controller.close();
    } catch {
      // Its reader is gone already.
      this.#closing.delete(stream);
    }
    this.#watch();
  }

  /**
   * Once a tick: closing streams are let go, dropped if their reader did not take the rest; open
   * ones whose reader took nothing of a full buffer since the last tick are closed.
   */
  #checkReaders(): void {
    for (const stream of [...this.#closing]) {
      this.#drop(stream);
      // Erroring discards what it queued; the server drops the connection (see simServer.ts).
      if (queuedBytes(stream) > 0) stream.controller.error(new StreamDropped());
    }
    for (const stream of [...this.#streams]) {
      if (!stream.pulled && isFull(stream)) this.#fellBehind(stream);
      stream.pulled = false;
    }
  }

  /** The simulation was replaced: a new epoch, and every page starts again from its start. */
  #replaced(): void {
    this.#generation++;
    this.#requests = [];
    this.#requestsDropped = 0;
    this.#lines = this.#newLines();
    this.#messages = new FeedMessages(this.#lines, this.epoch);
    this.#subscription?.unsubscribe();
    this.#subscription = undefined;
    for (const stream of this.#streams) {
      stream.seq = 0;
      stream.req = 0;
      stream.clock = '';
      this.#send(stream, sseMessage('reset', {}));
    }
    this.#watch();
    this.#wake();
  }

  /** A paced clock moves only when someone asks: pages watching ask once a tick. */
  #tick(): void {
    this.#ticks++;
    this.#checkReaders();
    if (this.#streams.size === 0) return;
    if (this.#core.clock.rate > 0) {
      try {
        this.#core.act(() => undefined);
      } catch {
        // The store cannot take writes: the clock stays, and the pages show where it is.
      }
    }
    if (this.#ticks % HEARTBEAT_TICKS === 0)
      for (const stream of this.#streams) this.#send(stream, SSE_HEARTBEAT);
    this.#wake();
  }

  #wake(): void {
    if (this.#flushTimer !== undefined || this.#streams.size === 0) return;
    this.#flushTimer = setTimeout(() => {
      this.#flushTimer = undefined;
      this.#flushRound([...this.#streams], 0);
    }, FLUSH_MS);
  }

  /** Sends `streams` from `next` on what is new, ROUND_MS of it a turn of the event loop. */
  #flushRound(streams: readonly FeedStream[], next: number): void {
    const started = performance.now();
    for (let at = next; at < streams.length; at++) {
      if (at > next && performance.now() - started > ROUND_MS) {
        setImmediate(() => this.#flushRound(streams, at));
        return;
      }
      this.#flush(streams[at] as FeedStream);
    }
  }

  /**
   * Sends `stream` everything since its cursor, then the clock if it moved. Once at a time: a
   * message handed to a waiting read calls `pull` at once, inside this, and a second flush there
   * would send what this one is about to send (the reader got lines twice).
   */
  #flush(stream: FeedStream): void {
    // A stream its reader leaves full is not even told what it skips until it takes some.
    if (!this.#streams.has(stream) || isFull(stream) || stream.flushing) return;
    stream.flushing = true;
    try {
      this.#sendNew(stream);
    } finally {
      stream.flushing = false;
    }
  }

  /** `#flush`'s work: what is new for `stream`, while it has room. */
  #sendNew(stream: FeedStream): void {
    const sim = this.#sim();
    const log = sim.log;
    const end = log.length;
    const requestEnd = this.#requestsDropped + this.#requests.length;
    this.#skipBacklog(stream, end, requestEnd);
    if (this.#lines.narrator.behind(stream.seq) > READ_IN_ONE_GO) {
      this.#readOn(stream.seq);
      return;
    }
    // While its reader leaves its buffer full, the rest stays in the log (pull sends it). Only
    // sending changes that here (what the reader takes comes in later turns): it is read after.
    const room = () => this.#streams.has(stream) && !isFull(stream);
    const requests = { kept: this.#requests, dropped: this.#requestsDropped };
    while (room()) {
      const message = this.#messages.next(stream, end, requests);
      if (message === undefined) break;
      stream.seq = message.after.seq;
      stream.req = message.after.req;
      if (message.bytes !== undefined) this.#sendBytes(stream, message.bytes);
    }
    if (!room()) return;
    const clock = { now: sim.now(), mode: this.#core.clock.name, events: end };
    const shown = JSON.stringify(clock);
    if (shown !== stream.clock) {
      stream.clock = shown;
      if (this.#clock.shown !== shown)
        this.#clock = { shown, bytes: this.#encoder.encode(sseMessage('clock', clock)) };
      this.#sendBytes(stream, this.#clock.bytes);
    }
  }

  /**
   * Has the narrator read on to event `to` in slices (once, however many streams wait for it),
   * then sends every stream what is new.
   */
  #readOn(to: number): void {
    const lines = this.#lines;
    if (this.#readingOn === lines) return;
    this.#readingOn = lines;
    void runSliced({
      slice: (max) => (lines.narrator.readOn(max, to) ? 'done' : 'more'),
      // A simulation replaced, or the server stopping, leaves this narrator behind.
      afterSlice: () =>
        this.#closed || this.#lines !== lines
          ? { code: 'service_unavailable', message: 'the feed moved on' }
          : undefined,
    }).finally(() => {
      if (this.#readingOn === lines) this.#readingOn = undefined;
      this.#flushRound([...this.#streams], 0);
    });
  }

  /**
   * A stream far behind (a first page on a long run, or one that was away long) skips to the last
   * `BACKLOG` events, and past requests no longer kept, saying how many it skipped.
   */
  #skipBacklog(stream: FeedStream, end: number, requestEnd: number): void {
    // From a chunk's start, so every stream that skips asks for the same messages.
    const seq = Math.max(stream.seq, Math.floor((end - BACKLOG) / CHUNK_EVENTS) * CHUNK_EVENTS);
    let req = Math.max(stream.req, this.#requestsDropped);
    while (
      req < requestEnd &&
      (this.#requests[req - this.#requestsDropped] as PlacedRequest).position < seq
    )
      req++;
    if (seq === stream.seq && req === stream.req) return;
    const skipped = { events: seq - stream.seq, requests: req - stream.req, at: this.#sim().now() };
    stream.seq = seq;
    stream.req = req;
    const id = formatCursor({ epoch: this.epoch, seq, req });
    this.#send(stream, sseMessage('skipped', skipped, id));
  }

  #newLines(): FeedLineRing {
    const sim = this.#sim();
    const read = (from: number, to: number) => sim.log.range(from, to);
    // A stream is sent nothing older than BACKLOG events (to a chunk's start) before the log's
    // end, and the ring has room for every stream's last ones, with the log moving on meanwhile.
    const narrator = new FeedNarrator(read, BACKLOG + CHUNK_EVENTS);
    return new FeedLineRing(narrator, read, 4 * BACKLOG);
  }

  /** Queues `text` for `stream` (the callers keep to its bound). */
  #send(stream: FeedStream, text: string): void {
    this.#sendBytes(stream, this.#encoder.encode(text));
  }

  /**
   * Queues `bytes` for `stream` (the callers keep to its bound). They may be queued for other
   * streams too: nothing downstream writes into a chunk it is handed.
   */
  #sendBytes(stream: FeedStream, bytes: Uint8Array): void {
    if (!this.#streams.has(stream)) return;
    try {
      stream.controller.enqueue(bytes);
    } catch {
      this.#drop(stream);
    }
  }
}

/**
 * Bytes queued for `stream` that its reader has not taken. An errored stream holds none; so does a
 * closed one once read to its end (its room reads 0 then: a closing stream left with exactly
 * `STREAM_BUFFER_BYTES` unread is taken for drained, and held, bounded, until its socket closes).
 */
function queuedBytes(stream: FeedStream): number {
  const room = stream.controller.desiredSize;
  if (room === null || (room === 0 && stream.closing)) return 0;
  return Math.max(0, STREAM_BUFFER_BYTES - room);
}

/** Whether `stream` holds its bound or more unread. */
function isFull(stream: FeedStream): boolean {
  const room = stream.controller.desiredSize;
  return room !== null && room <= 0;
}
