/**
 * The live side of `serve`'s dashboard: one server-sent events stream per open page, fed from the
 * served simulation's `events$` (woken by it, read from the log, so a stream can start anywhere)
 * and from the requests the core answered. Every message carries the cursor after it as its id, so
 * a page that lost its connection resumes with `Last-Event-ID` without losing or repeating a line.
 */
import type { Subscription } from 'rxjs';
import { FeedNarrator } from '../dashboard/feedNarrator.js';
import { eventItem, requestItem, type FeedItem } from '../dashboard/feedItem.js';
import type { PlacedRequest } from '../dashboard/servedRunReport.js';
import { SSE_HEARTBEAT, sseMessage } from '../dashboard/sseMessage.js';
import { formatCursor, parseCursor, type StreamCursor } from '../dashboard/streamCursor.js';
import type { AnsweredRequest, HttpCore } from '../service/httpCore.js';
import type { Simulation } from '../simulation/simulation.js';

/** Requests kept for streams that resume and for the report (the oldest go first). */
const REQUESTS_KEPT = 10_000;
/** Events a stream is sent at most when it starts or resumes far behind; older ones are skipped. */
const BACKLOG = 5_000;
/** Feed lines per message. */
const ITEMS_PER_MESSAGE = 200;
/** Wall ms between a change and the messages that tell it (changes in between go together). */
const FLUSH_MS = 50;
/** Wall ms between a paced clock's catch-ups while pages watch, and between checks of the streams. */
const TICK_MS = 1_000;
/** Ticks between heartbeats. */
const HEARTBEAT_TICKS = 15;
/** Chunks a page may leave unread before its stream is closed (it resumes when it catches up). */
const MAX_UNREAD = 1_000;

interface FeedStream {
  readonly controller: ReadableStreamDefaultController<Uint8Array>;
  seq: number;
  req: number;
  /** The clock message last sent, so an unchanged clock is not sent again. */
  clock: string;
}

/** The event streams of the dashboard of one server. */
export class DashboardFeed {
  readonly #core: HttpCore;
  readonly #instance: string;
  readonly #streams = new Set<FeedStream>();
  readonly #encoder = new TextEncoder();
  #generation = 0;
  /** Requests answered since the simulation was last replaced: the kept ones, and how many went. */
  #requests: PlacedRequest[] = [];
  #requestsDropped = 0;
  #subscription: Subscription | undefined;
  #narrator: FeedNarrator;
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
    this.#narrator = this.#newNarrator();
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
            seq: resumes ? cursor.seq : 0,
            req: resumes ? cursor.req : 0,
            clock: '',
          };
          if (lastEventId !== null && !resumes) this.#send(stream, sseMessage('reset', {}));
          this.#streams.add(stream);
          this.#watch();
          this.#flush(stream);
        },
        cancel: () => {
          if (stream !== undefined) this.#drop(stream);
        },
      },
      { highWaterMark: 16 },
    );
  }

  /** Ends every stream and stops listening (the server is stopping). */
  close(): void {
    this.#closed = true;
    for (const stream of [...this.#streams]) {
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

  /** Listens to the simulation and ticks while any page watches; not at all otherwise. */
  #watch(): void {
    if (this.#streams.size === 0) {
      this.#subscription?.unsubscribe();
      this.#subscription = undefined;
      if (this.#ticker !== undefined) clearInterval(this.#ticker);
      this.#ticker = undefined;
      return;
    }
    this.#subscription ??= this.#sim().events$.subscribe(() => this.#wake());
    if (this.#ticker === undefined) {
      this.#ticker = setInterval(() => this.#tick(), TICK_MS);
      this.#ticker.unref();
    }
  }

  #drop(stream: FeedStream): void {
    this.#streams.delete(stream);
    this.#watch();
  }

  /** The simulation was replaced: a new epoch, and every page starts again from its start. */
  #replaced(): void {
    this.#generation++;
    this.#requests = [];
    this.#requestsDropped = 0;
    this.#narrator = this.#newNarrator();
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
      for (const stream of [...this.#streams]) this.#flush(stream);
    }, FLUSH_MS);
  }

  /** Sends `stream` everything since its cursor, then the clock if it moved. */
  #flush(stream: FeedStream): void {
    const sim = this.#sim();
    const log = sim.log;
    const end = log.length;
    const requestEnd = this.#requestsDropped + this.#requests.length;
    this.#skipBacklog(stream, end, requestEnd);
    let items: FeedItem[] = [];
    const emit = () => {
      if (items.length === 0) return;
      const id = formatCursor({ epoch: this.epoch, seq: stream.seq, req: stream.req });
      this.#send(stream, sseMessage('feed', items, id));
      items = [];
    };
    const requestsUpTo = (position: number) => {
      for (; stream.req < requestEnd; stream.req++) {
        const request = this.#requests[stream.req - this.#requestsDropped] as PlacedRequest;
        if (request.position > position) break;
        items.push(requestItem(request));
        if (items.length >= ITEMS_PER_MESSAGE) emit();
      }
    };
    if (stream.seq < end)
      for (const event of log.range(stream.seq, end)) {
        requestsUpTo(event.seq);
        const text = this.#narrator.narrate(event);
        stream.seq = event.seq + 1;
        if (text !== undefined) items.push(eventItem(event, text));
        if (items.length >= ITEMS_PER_MESSAGE) emit();
      }
    requestsUpTo(end);
    emit();
    const clock = { now: sim.now(), mode: this.#core.clock.name, events: end };
    const text = JSON.stringify(clock);
    if (text !== stream.clock) {
      stream.clock = text;
      this.#send(stream, sseMessage('clock', clock));
    }
  }

  /**
   * A stream far behind (a first page on a long run, or one that was away long) skips to the last
   * `BACKLOG` events, and past requests no longer kept, saying how many it skipped.
   */
  #skipBacklog(stream: FeedStream, end: number, requestEnd: number): void {
    const seq = Math.max(stream.seq, end - BACKLOG);
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

  #newNarrator(): FeedNarrator {
    const sim = this.#sim();
    return new FeedNarrator((from, to) => sim.log.range(from, to));
  }

  #send(stream: FeedStream, text: string): void {
    const unread = stream.controller.desiredSize;
    if (unread !== null && unread < -MAX_UNREAD) {
      // A page that does not read is closed: it resumes from its last id once it reconnects.
      this.#drop(stream);
      stream.controller.close();
      return;
    }
    try {
      stream.controller.enqueue(this.#encoder.encode(text));
    } catch {
      this.#drop(stream);
    }
  }
}
