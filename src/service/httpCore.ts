/**
 * The HTTP core: a Web-standard `fetch(request, context?) → Promise<Response>` over one route table
 * (the REST routes, answered by `sim.request`, and the `_sim` control routes), one error table, and
 * what serving adds around them: bearer keys and scopes, rate limits, a paced or manual clock,
 * sliced clock moves, `Date` in virtual time, and the store written before every response. It uses
 * nothing of node: `computesim serve` wraps it in node:http and injects the node-only parts (the
 * state file, the wall clock, the memory check); `sim.fetch` calls it in process.
 */
import { API_PREFIX } from '../api/apiPrefix.js';
import type { AddedRoute } from '../api/requestPipeline.js';
import { formatInstant, LAST_INSTANT } from '../core/instant.js';
import type { LoggedEvent } from '../engine/loggedEvent.js';
import type { ServedSimulation } from './servedSimulation.js';
import { ClockDriver, type ClockMode } from './clockMode.js';
import { asServiceError } from '../api/apiResponse.js';
import { requestId } from '../core/requestIds.js';
import { ok } from '../core/result.js';
import { errorAnswer, type Answer } from './errorTable.js';
import { RateLimiter, type RateLimits } from '../api/rateLimiter.js';
import { readBody } from './readBody.js';
import type { RequestLike } from './requestLike.js';
import { CONTROL_PREFIX, CONTROL_ROUTES, noControlRoute, type ControlHost } from './simControl.js';
import { parseControlBody } from './controlBody.js';
import { ClockMove } from './clockMove.js';
import { runSliced, type SliceResult, type SliceStop } from './slicedRun.js';
import { StateFileError } from './stateFileError.js';
import { streamedBody } from './streamedBody.js';
import { bearer, controlAccess } from './controlAccess.js';

export type { RequestLike };
export { API_PREFIX };

/** What the core knows of the connection a request came on (like hono's env / connection info). */
export interface HttpContext {
  /** The client's address: the rate limiter's caller for keys the server does not know. */
  readonly clientAddress?: string;
  /**
   * Whether the client has gone (its connection closed before the answer): a clock move it started
   * stops at its next slice, as `DELETE /_sim/advance` stops one.
   */
  readonly gone?: () => boolean;
}

/** Where served events are kept (the state file): written before every response. */
interface SimStore {
  /** How many of the log's events the store holds durably. */
  readonly written: number;
  /** Appends the events it does not hold yet; throws when it cannot (the change is then undone). */
  flush(sim: ServedSimulation): void;
  /** Replaces everything it holds with `sim`'s log (on reset). */
  rewrite(sim: ServedSimulation): void;
  /** After a failure: whether a write looks likely to succeed again (default: yes). */
  looksWritable?(): boolean;
}

/** How the core makes a new simulation: for `_sim/reset` and to roll back what a store refused. */
interface Renewal {
  fresh(seed: number): ServedSimulation;
  fromJSONL(text: string): ServedSimulation;
  replay(events: Iterable<LoggedEvent>): ServedSimulation;
}

/** A key as the control routes see it: only its kind matters (project keys may not control). */
export interface ControlKey {
  readonly kind: 'personal' | 'organization' | 'project';
}

/** A request the core has answered, as observers (the dashboard's feed) see it. */
export interface AnsweredRequest {
  readonly method: string;
  /** Path and query, from `/api/v2` on. */
  readonly path: string;
  readonly status: number;
  /** Virtual time when it was answered. */
  readonly at: number;
  /** The log's length once its events were appended (where it falls among the events). */
  readonly position: number;
}

/** How the core serves. Every field is optional: the defaults are a simulation in process. */
export interface HttpCoreOptions {
  /**
   * The keys and their kinds, for control routes (API routes check the simulation's own keys).
   * None: every control request is accepted, as every request is by a simulation without keys.
   */
  readonly keys?: ReadonlyMap<string, ControlKey>;
  /** Default manual: virtual time moves only through the control routes. */
  readonly clock?: ClockMode;
  /** The wall clock, for a paced clock and rate limits (the node adapter passes `Date.now`). */
  readonly wallNow?: () => number;
  /** Where events are written before each response; needs `renew` (to roll back). */
  readonly store?: SimStore;
  /** How to make a new simulation; without it `_sim/reset` answers 501. */
  readonly renew?: Renewal;
  /** Apply the real service's rate limits (429 with Retry-After); needs `wallNow`. */
  readonly rateLimits?: RateLimits;
  /** Told of every error answered as a 500 (the client sees only `internal_error`). */
  readonly onInternalError?: (error: unknown) => void;
  /** Says when memory is too full for a long clock move to go on (it then stops with 507). */
  readonly memoryFull?: () => SliceStop | undefined;
  /** Told of every request once it is answered (an exception it throws is an internal error). */
  readonly onAnswered?: (request: AnsweredRequest) => void;
}

/** Timers one request may fire to catch a paced clock up with the wall. */
const SYNC_TIMERS = 50_000;

/**
 * A response before it is a `Response`: what `fetch` wraps in one, and what an adapter writing to
 * a socket takes as it is (a `Response` with a body costs a stream an adapter would read back).
 */
export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** A whole text, a stream of bytes, or nothing (204). */
  readonly body: string | ReadableStream<Uint8Array> | null;
}

function messageOf(answer: Answer): string {
  const body = answer.body as { message?: unknown } | undefined;
  return typeof body?.message === 'string' ? body.message : 'the change was not applied';
}

/** A front's change was not kept: the store cannot take writes (nothing changed). */
class NotServedError extends Error {
  override readonly name = 'NotServedError';
}

/** The HTTP core of a served simulation. */
export class HttpCore {
  #sim: ServedSimulation;
  #driver: ClockDriver;
  #clock: ClockMode;
  readonly #limiter: RateLimiter | undefined;
  /** The clock move under way (a sliced advance or run until idle), if any. */
  #moving: ClockMove | undefined;
  #closing = false;
  #issuedIds = 0;
  readonly #replacedListeners = new Set<(sim: ServedSimulation) => void>();
  /** The last `Date` header written, by the virtual second it names. */
  #date: { readonly second: number; readonly text: string } | undefined;
  /** Since the store last failed a write (cleared by a write that succeeds). */
  #writeFailures: { count: number; reason: string; retryAt: number } | undefined;
  /** The control routes, as the routes the core adds to the API's pipeline. */
  readonly #controlRoutes: readonly AddedRoute<Answer, HttpContext>[] = CONTROL_ROUTES.map(
    (route) => ({
      method: route.method,
      pattern: route.pattern,
      access: (apiKey) => controlAccess(this.options.keys, apiKey, 'control the simulation'),
      parse: (body) => parseControlBody(route.body, body),
      handle: (params, body, context) =>
        route.handle({ host: this.#controlHost(context), params, body }),
    }),
  );

  constructor(
    sim: ServedSimulation,
    readonly options: HttpCoreOptions = {},
  ) {
    if (options.store !== undefined && options.renew === undefined)
      throw new RangeError('HttpCore: a store needs renew (to roll back what it refuses)');
    const needsWall = (options.clock?.rate ?? 0) > 0 || options.rateLimits !== undefined;
    if (needsWall && options.wallNow === undefined)
      throw new RangeError('HttpCore: a paced clock or rate limits need wallNow');
    this.#sim = sim;
    this.#clock = options.clock ?? { name: 'manual', rate: 0 };
    this.#driver = this.#newDriver();
    options.store?.flush(sim);
    this.#limiter =
      options.rateLimits === undefined
        ? undefined
        : new RateLimiter(options.rateLimits, options.wallNow as () => number);
  }

  /** The simulation being served (it changes on `_sim/reset`). */
  get sim(): ServedSimulation {
    return this.#sim;
  }

  /** How the clock moves now (it changes on `POST /_sim/clock`). */
  get clock(): ClockMode {
    return this.#clock;
  }

  /**
   * Runs `work` on the served simulation as a request would run a change: the paced clock caught up
   * first, the store flushed after. For fronts beside the REST API (the Postgres front), so that what
   * their clients do is paced, logged and durable like any request; during a sliced clock move it
   * runs between slices, as a request does. Throws `NotServedError` when the store cannot take
   * writes (nothing changed then).
   */
  act<T>(work: (sim: ServedSimulation) => T): T {
    const refused = this.#readOnly();
    if (refused !== undefined) throw new NotServedError(messageOf(refused));
    this.#sync();
    const value = work(this.#sim);
    try {
      const before = this.options.store?.written;
      this.options.store?.flush(this.#sim);
      if (this.options.store?.written !== before) this.#writeFailures = undefined;
    } catch (error) {
      throw new NotServedError(messageOf(this.#notDurable(error)));
    }
    return value;
  }

  /**
   * Lets the wall time since the clock last followed it go by without moving virtual time: a paced
   * clock goes on from where it is now. For a server's own preparation (a front making its template
   * database), which is not time the simulated service spent.
   */
  skipWallTime(): void {
    this.#sync();
    this.#driver = this.#newDriver();
  }

  /**
   * Calls `listener` each time the served simulation is replaced by another (`_sim/reset`, or a
   * roll back after the store refused a write), so fronts can drop what they hold of the old one.
   * Returns the unsubscribe function.
   */
  onReplaced(listener: (sim: ServedSimulation) => void): () => void {
    this.#replacedListeners.add(listener);
    return () => this.#replacedListeners.delete(listener);
  }

  #replaced(next: ServedSimulation): void {
    this.#sim = next;
    for (const listener of [...this.#replacedListeners]) listener(next);
  }

  /** Stops clock moves under way at their next slice (503): the server is stopping. */
  close(): void {
    this.#closing = true;
  }

  /**
   * Answers one request as a Web `Response` (the Web-standard handler: in process, in any runtime
   * with `fetch`, or behind any server). Never rejects: every failure is a JSON error response.
   */
  readonly fetch = async (request: RequestLike, context: HttpContext = {}): Promise<Response> => {
    const reply = await this.serve(request, context);
    return new Response(reply.body, { status: reply.status, headers: reply.headers });
  };

  /**
   * Answers one request: everything `fetch` does but wrapping the reply in a `Response`. The store
   * holds the request's events before this resolves. Never rejects.
   */
  async serve(request: RequestLike, given: HttpContext = {}): Promise<Reply> {
    const context = withSignal(given, request.signal);
    const sent = request.headers.get('x-request-id') || undefined;
    let answer: Answer;
    try {
      const requestId = sent ?? this.#newRequestId();
      const url = pathOf(request.url);
      // Only a body to read or a control route waits; a REST request is answered in this turn.
      const body = request.body === null ? NO_BODY : await readBody(request);
      // Only a request id the client sent goes down the pipeline: one it did not send is drawn
      // there as `sim.request` draws it, so an error answer is the same in process and served.
      let routed: Answer | Promise<Answer> = body.ok
        ? this.#route(request, url, body.value, sent, context)
        : body.error;
      if (routed instanceof Promise) routed = await routed;
      if (body.ok) this.#keepPace();
      answer = this.#asService(routed, requestId, isControlPath(url.slice(API_PREFIX.length)));
      try {
        const before = this.options.store?.written;
        this.options.store?.flush(this.#sim);
        if (this.options.store?.written !== before) this.#writeFailures = undefined;
      } catch (error) {
        answer = this.#notDurable(error);
      }
      this.#tell(request.method, url, answer.status);
      return this.#reply(answer, sent);
    } catch (error) {
      // Outside the route handlers (reading, flushing, building the reply): a bare 500.
      this.options.onInternalError?.(error);
      return {
        status: 500,
        headers: { 'content-type': JSON_TYPE },
        body: JSON.stringify(INTERNAL_ERROR),
      };
    }
  }

  /** Tells `onAnswered` of a request; an observer that throws never changes the answer. */
  #tell(method: string, url: string, status: number): void {
    const observer = this.options.onAnswered;
    if (observer === undefined) return;
    const path = url.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) || '/' : url;
    let at: number;
    let position: number;
    try {
      at = this.#sim.now();
      position = this.#sim.log.length;
    } catch {
      // The simulation cannot say where it is: the reply is failing on that already, and says so.
      return;
    }
    try {
      observer({ method: method.toUpperCase(), path, status, at, position });
    } catch (error) {
      this.options.onInternalError?.(error);
    }
  }

  /**
   * The answer of the API's pipeline, with what serving adds: writes refused while the store
   * cannot take them, the paced clock caught up, the control routes, the server's rate limits.
   * REST routes answer in this turn; a control route may wait.
   */
  #route(
    request: RequestLike,
    url: string,
    body: unknown,
    requestId: string | undefined,
    context: HttpContext,
  ): Answer | Promise<Answer> {
    const method = request.method.toUpperCase();
    const readOnly = method === 'GET' ? undefined : this.#readOnly();
    if (readOnly !== undefined) return readOnly;
    const apiKey = bearer(request.headers.get('authorization'));
    try {
      this.#sync();
      const limiter = this.#limiter;
      return this.#sim.answer<Answer, HttpContext>(
        {
          method,
          path: url,
          body,
          ...(requestId === undefined ? {} : { requestId }),
          ...(apiKey === undefined ? {} : { apiKey }),
        },
        {
          addedRoutes: this.#controlRoutes,
          context,
          prefixOnly: true,
          ...(limiter === undefined
            ? {}
            : {
                admit: (caller: string, route: string) => limiter.admit(caller, route),
                anonymousCaller: `address ${context.clientAddress ?? '?'}`,
              }),
          intercept: (matched, { pathname }) =>
            matched === undefined && isControlPath(pathname)
              ? (controlAccess(this.options.keys, apiKey, 'control the simulation') ??
                noControlRoute(method, pathname))
              : undefined,
          failure: (error) => this.#failed(error),
          codesFor: (pathname) =>
            isControlPath(pathname) ? 'computesim' : this.#sim.profile.errorCodes,
        },
      );
    } catch (error) {
      return this.#failed(error);
    }
  }

  /** An error thrown by a route as its answer; told to `onInternalError` when it is a 500. */
  #failed(error: unknown): Answer {
    const answer = failure(error);
    if (answer.status === 500) this.options.onInternalError?.(error);
    return answer;
  }

  /**
   * The store could not take the events of a change: go back to the simulation it holds, so no
   * change is acknowledged, or seen, that a restart would lose.
   */
  #notDurable(error: unknown): Answer {
    const store = this.options.store as SimStore;
    const renew = this.options.renew as Renewal;
    this.#replaced(renew.replay(this.#sim.log.range(0, store.written)));
    // Replaying costs time in proportion to the log: until the store can be written again, writes
    // are refused before they run, and a store that keeps failing is tried less and less often.
    const count = (this.#writeFailures?.count ?? 0) + 1;
    const wait = count === 1 ? 0 : Math.min(60_000, 1_000 * 2 ** (count - 2));
    this.#writeFailures = { count, reason: firstLine(error), retryAt: this.#wallNow() + wait };
    return errorAnswer('service_unavailable', `the change was not applied: ${firstLine(error)}`);
  }

  /**
   * After the store failed a write: a 503 for a request that may write, unless the store looks
   * writable again (a state file that opens for appending, on a disk with room) and any back-off
   * has passed.
   */
  #readOnly(): Answer | undefined {
    const failed = this.#writeFailures;
    if (failed === undefined) return undefined;
    const store = this.options.store;
    if (this.#wallNow() >= failed.retryAt && store?.looksWritable?.() !== false) return undefined;
    return errorAnswer(
      'service_unavailable',
      `the state file cannot be written (${failed.reason}): only reads are served until it can; ` +
        'nothing was changed',
    );
  }

  #wallNow(): number {
    return (this.options.wallNow ?? (() => 0))();
  }

  #controlHost(context: HttpContext): ControlHost {
    const current = () => this.#sim;
    const mode = () => this.#clock;
    return {
      get sim() {
        return current();
      },
      get clockName() {
        return mode().name;
      },
      setClock: (mode) => {
        if (mode.rate > 0 && this.options.wallNow === undefined)
          return errorAnswer(
            'invalid_input',
            'a paced clock needs a wall clock: this simulation is served in process (manual only)',
          );
        this.#clock = mode;
        this.#driver = this.#newDriver();
        return undefined;
      },
      advanceTo: (target: number) =>
        this.#moveClock(
          `an advance to ${formatInstant(target)}`,
          (sim, maxTimers) => (sim.advanceToward(target, maxTimers) ? 'done' : 'more'),
          context,
        ),
      runUntilIdle: (within: number) => {
        const deadline = Math.min(LAST_INSTANT, this.#sim.now() + within);
        return this.#moveClock(
          'a run until idle',
          (sim, maxTimers) => {
            const outcome = sim.runTowardIdle(deadline, maxTimers);
            return outcome === 'idle' ? 'done' : outcome;
          },
          context,
        );
      },
      stopMove: async () => {
        const moving = this.#moving;
        if (moving === undefined)
          return errorAnswer(
            'not_found',
            `no clock move is under way to stop; the clock is at ${formatInstant(this.#sim.now())}`,
          );
        moving.stop();
        await moving.ended;
        return undefined;
      },
      reset: (from) => {
        const renew = this.options.renew;
        if (renew === undefined)
          return errorAnswer(
            'not_implemented',
            'a simulation served in process cannot replace itself: make a new Simulation instead',
          );
        if (this.#moving !== undefined) return clockBusy(this.#moving.what);
        const next =
          from.jsonl !== undefined
            ? renew.fromJSONL(from.jsonl)
            : renew.fresh(from.seed ?? this.#sim.seed);
        this.options.store?.rewrite(next);
        this.#replaced(next);
        this.#driver = this.#newDriver();
        return undefined;
      },
    };
  }

  /**
   * Moves the clock in slices (see `runSliced`), flushing each slice to the store, while other
   * requests are served in between. One move at a time: another gets 409. Resolves to an error
   * answer if the move stopped short (the clock then stays where the last whole slice left it):
   * asked to (`stopMove`), its client gone, memory short, the store failing.
   */
  async #moveClock(
    what: string,
    slice: (sim: ServedSimulation, maxTimers: number) => SliceResult,
    context: HttpContext,
  ): Promise<Answer | undefined> {
    if (this.#moving !== undefined) return clockBusy(this.#moving.what);
    const sim = this.#sim;
    const move = new ClockMove(what, context.gone);
    this.#moving = move;
    let ended: SliceResult | SliceStop;
    try {
      ended = await runSliced({
        slice: (maxTimers) => slice(sim, maxTimers),
        ...(this.options.memoryFull === undefined ? {} : { memoryFull: this.options.memoryFull }),
        afterSlice: (result) => {
          if (this.#sim !== sim)
            return { code: 'service_unavailable', message: 'the simulation was replaced' };
          if (this.#closing)
            return { code: 'service_unavailable', message: 'the server is stopping' };
          try {
            this.options.store?.flush(sim);
          } catch (error) {
            const failed = this.#notDurable(error);
            return {
              code: 'service_unavailable',
              message: (failed.body as { message: string }).message,
            };
          }
          // Flushed first: a move stopped here is as durable as one that arrived. One that has
          // just arrived answers as arrived, whoever asked it to stop.
          return result === 'more' ? move.stopped() : undefined;
        },
      });
    } finally {
      this.#moving = undefined;
      this.#driver = this.#newDriver();
      move.end();
    }
    if (ended === 'done') return undefined;
    const now = formatInstant(this.#sim.now());
    if (ended === 'deadline')
      return errorAnswer(
        'still_busy',
        `${what} gave up: work is still pending after the time allowed (within); ` +
          `the clock moved to ${now}`,
      );
    if (ended === 'more') throw new Error('a sliced run ended with work left');
    const answer = errorAnswer(
      ended.code,
      `${what} stopped: ${ended.message}; the clock is at ${now}`,
    );
    // Where the clock stopped, as `GET /_sim/clock` says it, for a client to go on from there.
    return { ...answer, body: { ...(answer.body as object), now, now_ms: this.#sim.now() } };
  }

  /**
   * Moves virtual time toward where the wall clock says it is (paced modes), doing at most a
   * bounded amount of work per request: a simulation slower than its pace lags behind instead of
   * holding the request. Nothing moves while a clock move is under way.
   */
  #sync(): void {
    if (this.#moving !== undefined || this.#writeFailures !== undefined) return;
    const target = this.#driver.target();
    if (target !== undefined && target > this.#sim.now())
      this.#sim.advanceToward(target, SYNC_TIMERS);
  }

  /**
   * After a request that moved virtual time past the wall (`run_until_idle`), pacing goes on from
   * there instead of freezing the clock until the wall catches up.
   */
  #keepPace(): void {
    const target = this.#driver.target();
    if (target !== undefined && target < this.#sim.now()) this.#driver = this.#newDriver();
  }

  #newDriver(): ClockDriver {
    return new ClockDriver(this.#clock, this.#sim.now(), this.options.wallNow);
  }

  /**
   * A new request id for a request that sent no `X-Request-ID` (its error body carries it, as the
   * real service's does): deterministic, keyed by the log position and a count.
   */
  #newRequestId(): string {
    return requestId(this.#sim.seed, 'http-request-ids', this.#sim.log.length, this.#issuedIds++);
  }

  /**
   * An error answer as the service sends it: with its request id and, on API routes, the code the
   * profile asks for (control routes under `/_sim/` are computesim's own and keep theirs).
   */
  #asService(answer: Answer, requestId: string, control: boolean): Answer {
    if (answer.status < 400 || answer.contentType !== undefined) return answer;
    const codes = control ? 'computesim' : this.#sim.profile.errorCodes;
    return { ...answer, body: asServiceError(answer.body, requestId, codes) };
  }

  /** `Date` for virtual time `now`: whole seconds, so one text serves every reply in a second. */
  #dateHeader(now: number): string {
    const second = Math.floor(now / 1_000);
    if (this.#date?.second !== second)
      this.#date = { second, text: new Date(second * 1_000).toUTCString() };
    return this.#date.text;
  }

  /** The answer as a reply, with `Date` in virtual time and the request id echoed. */
  #reply(answer: Answer, requestId: string | undefined): Reply {
    const headers: Record<string, string> = { date: this.#dateHeader(this.#sim.now()) };
    if (requestId !== undefined) headers['x-request-id'] = requestId;
    if (answer.headers !== undefined) Object.assign(headers, answer.headers);
    if (answer.stream !== undefined) {
      headers['content-type'] = answer.contentType ?? 'application/octet-stream';
      return { status: answer.status, headers, body: streamedBody(answer.stream) };
    }
    if (answer.status === 204 || answer.body === undefined)
      return { status: answer.status, headers, body: null };
    const text =
      typeof answer.body === 'string' && answer.contentType !== undefined
        ? answer.body
        : JSON.stringify(answer.body);
    headers['content-type'] = answer.contentType ?? JSON_TYPE;
    return { status: answer.status, headers, body: text };
  }
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The body of a request that has none. */
const NO_BODY = ok(undefined);

const INTERNAL_ERROR = {
  code: 'internal_error',
  message: 'the simulator failed on this request',
} as const;

function isControlPath(path: string): boolean {
  return (
    path === CONTROL_PREFIX ||
    path.startsWith(`${CONTROL_PREFIX}/`) ||
    path.startsWith(`${CONTROL_PREFIX}?`)
  );
}

/** The path and query of an absolute URL (`http://host/api/v2/x?y` → `/api/v2/x?y`). */
function pathOf(url: string): string {
  const scheme = url.indexOf('://');
  const at = url.indexOf('/', scheme === -1 ? 0 : scheme + 3);
  if (at === -1) return '/';
  const hash = url.indexOf('#', at);
  return hash === -1 ? url.slice(at) : url.slice(at, hash);
}

/** `context`, told by a `Request`'s signal whether its client has gone, unless it knows already. */
function withSignal(context: HttpContext, signal: AbortSignal | undefined): HttpContext {
  if (context.gone !== undefined || signal === undefined) return context;
  return { ...context, gone: () => signal.aborted };
}

function clockBusy(moving: string): Answer {
  return errorAnswer(
    'conflict',
    `the clock is busy with ${moving}: wait for it to answer, then try again`,
  );
}

function firstLine(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
}

/**
 * An error thrown while answering, as an answer that says what went wrong but never how. (A run's
 * own refusals, a step limit or a log that takes no more events, the simulation answers itself.)
 */
function failure(error: unknown): Answer {
  if (error instanceof StateFileError) return errorAnswer('service_unavailable', firstLine(error));
  return { status: 500, body: INTERNAL_ERROR };
}
