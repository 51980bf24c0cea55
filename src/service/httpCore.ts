/**
 * The HTTP core: a Web-standard `fetch(request, context?) → Promise<Response>` over one route table
 * (the REST routes, answered by `sim.request`, and the `_sim` control routes), one error table, and
 * what serving adds around them: bearer keys and scopes, rate limits, a paced or manual clock,
 * sliced clock moves, `Date` in virtual time, and the store written before every response. It uses
 * nothing of node: `computesim serve` wraps it in node:http and injects the node-only parts (the
 * state file, the wall clock, the memory check); `sim.fetch` calls it in process.
 */
import { API_PREFIX } from '../api/apiPrefix.js';
import { asServiceError } from '../api/apiResponse.js';
import { RateLimiter, type RateLimits } from '../api/rateLimiter.js';
import type { AddedRoute } from '../api/requestPipeline.js';
import { ok } from '../core/result.js';
import type { ClockMode } from './clockMode.js';
import { ClockMover } from './clockMover.js';
import { ClockPacer } from './clockPacer.js';
import { bearer, controlAccess } from './controlAccess.js';
import { Durability, notServed, type Renewal, type SimStore } from './durability.js';
import { errorAnswer, type Answer } from './errorTable.js';
import { withSignal, type HttpContext } from './httpContext.js';
import { internalErrorReply, replyOf, VirtualDateHeader, type Reply } from './httpReply.js';
import { HttpRequestIds } from './httpRequestIds.js';
import { readBody } from './readBody.js';
import { pathOf, type RequestLike } from './requestLike.js';
import { isControlPath, servedControlRoutes } from './servedControlRoutes.js';
import type { ServedSimulation } from './servedSimulation.js';
import { noControlRoute } from './simControl.js';
import type { SliceStop } from './slicedRun.js';
import { thrownErrorAnswer } from './thrownAnswer.js';

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

/** The HTTP core of a served simulation. */
export class HttpCore {
  #sim: ServedSimulation;
  readonly #pacer: ClockPacer;
  readonly #durability: Durability;
  readonly #mover: ClockMover;
  readonly #limiter: RateLimiter | undefined;
  readonly #requestIds = new HttpRequestIds();
  readonly #date = new VirtualDateHeader();
  readonly #replacedListeners = new Set<(sim: ServedSimulation) => void>();
  /** The control routes, as the routes the core adds to the API's pipeline. */
  readonly #controlRoutes: readonly AddedRoute<Answer, HttpContext>[];

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
    this.#pacer = new ClockPacer(
      options.clock ?? { name: 'manual', rate: 0 },
      sim,
      options.wallNow,
    );
    this.#durability = new Durability({
      store: options.store,
      renew: options.renew,
      wallNow: options.wallNow ?? (() => 0),
      rolledBack: (previous) => this.#replaced(previous),
    });
    this.#mover = new ClockMover({
      current: () => this.#sim,
      flushSlice: (moved) => this.#durability.flushSlice(moved),
      ended: () => this.#pacer.restart(this.#sim),
      memoryFull: options.memoryFull,
    });
    this.#durability.writeAll(sim);
    this.#limiter =
      options.rateLimits === undefined
        ? undefined
        : new RateLimiter(options.rateLimits, options.wallNow as () => number);
    this.#controlRoutes = servedControlRoutes({
      keys: options.keys,
      current: () => this.#sim,
      pacer: this.#pacer,
      mover: this.#mover,
      reset: (from) => this.#reset(from),
    });
  }

  /** The simulation being served (it changes on `_sim/reset`). */
  get sim(): ServedSimulation {
    return this.#sim;
  }

  /** How the clock moves now (it changes on `POST /_sim/clock`). */
  get clock(): ClockMode {
    return this.#pacer.mode;
  }

  /**
   * Runs `work` on the served simulation as a request would run a change: the paced clock caught up
   * first, the store flushed after. For fronts beside the REST API (the Postgres front), so that what
   * their clients do is paced, logged and durable like any request; during a sliced clock move it
   * runs between slices, as a request does. Throws `NotServedError` when the store cannot take
   * writes (nothing changed then).
   */
  act<T>(work: (sim: ServedSimulation) => T): T {
    const refused = this.#durability.refusal();
    if (refused !== undefined) throw notServed(refused);
    this.#sync();
    const value = work(this.#sim);
    const failed = this.#durability.flush(this.#sim);
    if (failed !== undefined) throw notServed(failed);
    return value;
  }

  /**
   * Lets the wall time since the clock last followed it go by without moving virtual time: a paced
   * clock goes on from where it is now. For a server's own preparation (a front making its template
   * database), which is not time the simulated service spent.
   */
  skipWallTime(): void {
    this.#sync();
    this.#pacer.restart(this.#sim);
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
    this.#mover.close();
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
    try {
      const requestId = sent ?? this.#requestIds.next(this.#sim);
      const url = pathOf(request.url);
      // Only a body to read or a control route waits; a REST request is answered in this turn.
      const body = request.body === null ? NO_REQUEST_BODY : await readBody(request);
      // Only a request id the client sent goes down the pipeline: one it did not send is drawn
      // there as `sim.request` draws it, so an error answer is the same in process and served.
      let routed: Answer | Promise<Answer> = body.ok
        ? this.#route(request, url, body.value, sent, context)
        : body.error;
      if (routed instanceof Promise) routed = await routed;
      if (body.ok) this.#pacer.keepPace(this.#sim);
      const control = isControlPath(url.slice(API_PREFIX.length));
      const served = this.#asService(routed, requestId, control);
      const answer = this.#durability.flush(this.#sim) ?? served;
      this.#tell(request.method, url, answer.status);
      return replyOf(answer, this.#date.at(this.#sim.now()), sent);
    } catch (error) {
      // Outside the route handlers (reading, flushing, building the reply): a bare 500.
      this.options.onInternalError?.(error);
      return internalErrorReply();
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
    const readOnly = method === 'GET' ? undefined : this.#durability.refusal();
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
    const answer = thrownErrorAnswer(error);
    if (answer.status === 500) this.options.onInternalError?.(error);
    return answer;
  }

  /** Replaces the served simulation (`_sim/reset`): a fresh one, or one rebuilt from a log. */
  #reset(from: { readonly seed?: number; readonly jsonl?: string }): Answer | undefined {
    const renew = this.options.renew;
    if (renew === undefined)
      return errorAnswer(
        'not_implemented',
        'a simulation served in process cannot replace itself: make a new Simulation instead',
      );
    const busy = this.#mover.busy();
    if (busy !== undefined) return busy;
    const next =
      from.jsonl !== undefined
        ? renew.fromJSONL(from.jsonl)
        : renew.fresh(from.seed ?? this.#sim.seed);
    this.#durability.rewrite(next);
    this.#replaced(next);
    this.#pacer.restart(next);
    return undefined;
  }

  /**
   * Catches the paced clock up with the wall, unless a clock move is under way or the store is
   * failing (nothing moves then).
   */
  #sync(): void {
    if (this.#mover.moving || this.#durability.failing) return;
    this.#pacer.catchUp(this.#sim);
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
}

/** The body of a request that has none. */
const NO_REQUEST_BODY = ok(undefined);
