/**
 * `computesim serve`'s core: the simulated REST API on a node:http server. One adapter over the
 * shared route table (`sim.request`), plus the `_sim` control routes; bearer keys, 1 MiB bodies,
 * JSON errors without stack traces, `Date` headers in virtual time, a paced or manual clock, and
 * an optional state file written before each response.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { ROUTES } from '../api/routeTable.js';
import { Router } from '../api/router.js';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { formatInstant, LAST_INSTANT } from '../core/instant.js';
import { StepLimitError } from '../engine/errors.js';
import { Simulation, type SimulationOptions } from '../simulation/simulation.js';
import type { ClockMode } from './clockMode.js';
import { ClockDriver } from './clockMode.js';
import { RateLimiter, type RateLimits } from './rateLimiter.js';
import { readBody } from './readBody.js';
import { handleControl, type ControlResponse } from './simControl.js';
import { runSliced, type SliceResult, type SliceStop } from './slicedRun.js';
import { StateFileError, type StateFile } from './stateFile.js';

/** An API key the server accepts. */
export interface ServedKey {
  readonly key: string;
  readonly kind: 'personal' | 'organization' | 'project';
  readonly projectId?: string;
}

/** How to serve. */
export interface SimServerOptions {
  /** Keys to accept (at least one: every request needs a bearer key). */
  readonly keys: readonly ServedKey[];
  readonly clock: ClockMode;
  /**
   * The open state file to append events to (`StateFile.open`; it holds `sim`'s log or a prefix of
   * it). The server releases its lock on `close()`.
   */
  readonly stateFile?: StateFile;
  /** Options for a simulation made by `_sim/reset`. */
  readonly simulation?: Pick<SimulationOptions, 'start' | 'profile'>;
  /** The wall clock (tests pass their own). */
  readonly wallNow?: () => number;
  /** Apply the real service's rate limits (429 with Retry-After); off by default. */
  readonly rateLimits?: RateLimits;
  /**
   * Told of every error answered as a 500 (the client sees only `internal_error`): where the
   * operator learns what went wrong. Default: nothing.
   */
  readonly onInternalError?: (error: unknown) => void;
  /**
   * Says when memory is too full for a long clock move to go on (it then stops where it is with
   * 507). Default: the V8 heap or the process past 85% of its limit.
   */
  readonly memoryFull?: () => SliceStop | undefined;
}

const API_PREFIX = '/api/v2';
const router = new Router(ROUTES);

/** A served simulation. */
export class SimServer {
  readonly server: Server;
  #sim: Simulation;
  #driver: ClockDriver;
  readonly #writer: StateFile | undefined;
  readonly #limiter: RateLimiter | undefined;
  /** Since the state file last failed a write (reset by a write that succeeds). */
  #writeFailures: { count: number; reason: string; retryAt: number } | undefined;
  /** The clock move under way (a sliced advance or run until idle), if any. */
  #moving: string | undefined;
  #closing = false;

  constructor(
    sim: Simulation,
    readonly options: SimServerOptions,
  ) {
    if (options.keys.length === 0) throw new RangeError('serve: give at least one API key');
    this.#sim = this.#withKeys(sim);
    this.#driver = new ClockDriver(options.clock, sim.now(), options.wallNow);
    this.#writer = options.stateFile;
    this.#writer?.flush(this.#sim);
    this.#limiter =
      options.rateLimits === undefined
        ? undefined
        : new RateLimiter(options.rateLimits, options.wallNow);
    this.server = createServer((request, response) => {
      this.#handle(request, response).catch((error: unknown) => {
        options.onInternalError?.(error);
        crashed(response);
      });
    });
    this.server.keepAliveTimeout = 5_000;
    this.server.on('clientError', answerClientError);
  }

  /** The simulation being served (it changes on `_sim/reset`). */
  get sim(): Simulation {
    return this.#sim;
  }

  /** Listens on `host:port` (0: any free port); resolves to the API's base URL. */
  listen(port: number, host = '127.0.0.1'): Promise<string> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        const address = this.server.address() as AddressInfo;
        const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
        resolve(`http://${shown}:${address.port}${API_PREFIX}`);
      });
    });
  }

  /**
   * Stops accepting connections and closes idle ones at once; any still open after `graceMs` (a
   * keep-alive client mid-request) are closed too, so a shutdown never waits on a client.
   */
  close(graceMs = 500): Promise<void> {
    this.#closing = true;
    return new Promise((resolve) => {
      const force = setTimeout(() => this.server.closeAllConnections(), graceMs);
      force.unref();
      this.server.close(() => {
        clearTimeout(force);
        this.#writer?.close();
        resolve();
      });
      this.server.closeIdleConnections();
    });
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const requestId = headerOf(request, 'x-request-id');
    const body = await readBody(request);
    let answer: ControlResponse;
    if (!body.ok) {
      answer = {
        status: body.error.status,
        body: { code: body.error.code, message: body.error.message },
        // The rest of an oversized body is not read: the connection cannot carry another request.
        ...(body.error.status === 413 ? { headers: { connection: 'close' } } : {}),
      };
    } else {
      answer = await this.#answer(request, body.value, requestId);
      this.#keepPace();
    }
    try {
      const before = this.#writer?.written;
      this.#writer?.flush(this.#sim);
      if (this.#writer?.written !== before) this.#writeFailures = undefined;
    } catch (error) {
      answer = this.#notDurable(error);
    }
    await this.#send(response, answer, requestId);
  }

  /**
   * The state file could not take the events of a change: go back to the simulation the file holds,
   * so no change is acknowledged, or seen, that a restart would lose.
   */
  #notDurable(error: unknown): ControlResponse {
    const writer = this.#writer as StateFile;
    this.#sim = this.#withKeys(Simulation.replay(this.#sim.log.range(0, writer.written)));
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    // Replaying costs time in proportion to the log: until the file can be written again, writes
    // are refused before they run, and a file that keeps failing is tried less and less often.
    const failures = (this.#writeFailures?.count ?? 0) + 1;
    const wait = failures === 1 ? 0 : Math.min(60_000, 1_000 * 2 ** (failures - 2));
    this.#writeFailures = {
      count: failures,
      reason: message ?? '',
      retryAt: this.#wallNow() + wait,
    };
    return {
      status: 503,
      body: { code: 'service_unavailable', message: `the change was not applied: ${message}` },
    };
  }

  async #answer(
    request: IncomingMessage,
    body: unknown,
    requestId: string | undefined,
  ): Promise<ControlResponse> {
    const url = request.url ?? '/';
    const method = (request.method ?? 'GET').toUpperCase();
    if (!url.startsWith(`${API_PREFIX}/`) && url !== API_PREFIX)
      return notFound(
        `no route for ${method} ${url.split('?')[0]} (the API is under ${API_PREFIX})`,
      );
    const apiKey = bearer(request);
    const path = url.slice(API_PREFIX.length);
    const malformed = malformedSegment(path);
    if (malformed !== undefined)
      return {
        status: 400,
        body: {
          code: 'invalid_input',
          message: `the path segment "${malformed}" is not valid percent-encoding`,
        },
      };
    const caller =
      apiKey !== undefined && this.#sim.knowsApiKey(apiKey)
        ? `key ${apiKey}`
        : `address ${request.socket.remoteAddress ?? '?'}`;
    const wait = this.#limiter?.admit(caller, rateRoute(method, path));
    if (wait !== undefined)
      return {
        status: 429,
        body: { code: 'rate_limited', message: `too many requests: retry after ${wait} s` },
        headers: { 'retry-after': String(wait) },
      };
    const readOnly = method === 'GET' ? undefined : this.#readOnly();
    if (readOnly !== undefined) return readOnly;
    try {
      this.#sync();
      if (path === '/_sim' || path.startsWith('/_sim/') || path.startsWith('/_sim?')) {
        const denied = this.#controlAccess(apiKey);
        if (denied !== undefined) return denied;
        return await handleControl(
          this.#controlHost(),
          method,
          path.slice('/_sim'.length).split('?')[0] ?? '',
          body,
        );
      }
      return this.#sim.request(method, url, body, {
        ...(apiKey === undefined ? {} : { apiKey }),
        ...(requestId === undefined ? {} : { requestId }),
      });
    } catch (error) {
      const answer = failure(error);
      if (answer.status === 500) this.options.onInternalError?.(error);
      return answer;
    }
  }

  /**
   * After the state file failed a write: a 503 for a request that may write, unless the file looks
   * writable again (it opens for appending, its disk has room) and any back-off has passed.
   */
  #readOnly(): ControlResponse | undefined {
    const failed = this.#writeFailures;
    if (failed === undefined || this.#writer === undefined) return undefined;
    if (this.#wallNow() >= failed.retryAt && this.#writer.looksWritable()) return undefined;
    return {
      status: 503,
      body: {
        code: 'service_unavailable',
        message:
          `the state file cannot be written (${failed.reason}): only reads are served until it ` +
          'can; nothing was changed',
      },
    };
  }

  #wallNow(): number {
    return (this.options.wallNow ?? Date.now)();
  }

  /** Control routes need a key that is not limited to one project. */
  #controlAccess(apiKey: string | undefined): ControlResponse | undefined {
    const key = this.options.keys.find((k) => k.key === apiKey);
    if (key === undefined)
      return {
        status: 401,
        body: {
          code: 'unauthorized',
          message: 'a valid API key is required (Authorization: Bearer …)',
        },
      };
    if (key.kind === 'project')
      return {
        status: 403,
        body: { code: 'forbidden', message: 'a project-scoped key cannot control the simulation' },
      };
    return undefined;
  }

  #controlHost() {
    const current = () => this.#sim;
    return {
      get sim() {
        return current();
      },
      clockName: this.options.clock.name,
      advanceTo: (target: number) =>
        this.#moveClock(`an advance to ${formatInstant(target)}`, (sim, maxTimers) =>
          sim.advanceToward(target, maxTimers) ? 'done' : 'more',
        ),
      runUntilIdle: (within: number) => {
        const deadline = Math.min(LAST_INSTANT, this.#sim.now() + within);
        return this.#moveClock('a run until idle', (sim, maxTimers) => {
          const outcome = sim.runTowardIdle(deadline, maxTimers);
          return outcome === 'idle' ? 'done' : outcome;
        });
      },
      reset: (from: { readonly seed?: number; readonly jsonl?: string }) => {
        if (this.#moving !== undefined) throw new ClockBusyError(this.#moving);
        const next =
          from.jsonl !== undefined
            ? Simulation.fromJSONL(from.jsonl).simulation
            : new Simulation({ ...this.options.simulation, seed: from.seed ?? this.#sim.seed });
        this.#withKeys(next);
        this.#writer?.rewrite(next);
        this.#sim = next;
        this.#driver = new ClockDriver(this.options.clock, next.now(), this.options.wallNow);
      },
    };
  }

  /**
   * Moves the clock in slices (see `runSliced`), flushing each slice to the state file, while other
   * requests are served in between. One move at a time: another gets 409. Resolves to an error
   * response if the move stopped short (the clock then stays where the last whole slice left it).
   */
  async #moveClock(
    what: string,
    slice: (sim: Simulation, maxTimers: number) => SliceResult,
  ): Promise<ControlResponse | undefined> {
    if (this.#moving !== undefined) return clockBusy(this.#moving);
    const sim = this.#sim;
    this.#moving = what;
    let ended: SliceResult | SliceStop;
    try {
      ended = await runSliced({
        slice: (maxTimers) => slice(sim, maxTimers),
        ...(this.options.memoryFull === undefined ? {} : { memoryFull: this.options.memoryFull }),
        afterSlice: () => {
          if (this.#sim !== sim)
            return {
              status: 503,
              code: 'service_unavailable',
              message: 'the simulation was replaced',
            };
          if (this.#closing)
            return { status: 503, code: 'service_unavailable', message: 'the server is stopping' };
          try {
            this.#writer?.flush(sim);
          } catch (error) {
            const failed = this.#notDurable(error);
            return {
              status: 503,
              code: 'service_unavailable',
              message: String((failed.body as { message: string }).message),
            };
          }
          return undefined;
        },
      });
    } finally {
      this.#moving = undefined;
      this.#driver = new ClockDriver(this.options.clock, this.#sim.now(), this.options.wallNow);
    }
    if (ended === 'done') return undefined;
    const now = formatInstant(this.#sim.now());
    if (ended === 'deadline')
      return {
        status: 409,
        body: {
          code: 'still_busy',
          message:
            `${what} gave up: work is still pending after the time allowed (within); ` +
            `the clock moved to ${now}`,
        },
      };
    if (ended === 'more') throw new Error('a sliced run ended with work left');
    return {
      status: ended.status,
      body: {
        code: ended.code,
        message: `${what} stopped: ${ended.message}; the clock is at ${now}`,
      },
    };
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
    if (target !== undefined && target < this.#sim.now())
      this.#driver = new ClockDriver(this.options.clock, this.#sim.now(), this.options.wallNow);
  }

  #withKeys(sim: Simulation): Simulation {
    for (const key of this.options.keys)
      sim.addApiKey({
        kind: key.kind,
        key: key.key,
        ...(key.projectId === undefined ? {} : { projectId: key.projectId }),
      });
    return sim;
  }

  async #send(
    response: ServerResponse,
    answer: ControlResponse,
    requestId: string | undefined,
  ): Promise<void> {
    const headers: Record<string, string> = { date: new Date(this.#sim.now()).toUTCString() };
    if (requestId !== undefined) headers['x-request-id'] = requestId;
    Object.assign(headers, answer.headers);
    if (answer.stream !== undefined) {
      response.writeHead(answer.status, {
        ...headers,
        'content-type': answer.contentType ?? 'application/octet-stream',
      });
      await streamTo(response, answer.stream);
      return;
    }
    if (answer.status === 204 || answer.body === undefined) {
      response.writeHead(answer.status, headers).end();
      return;
    }
    const text =
      typeof answer.body === 'string' && answer.contentType !== undefined
        ? answer.body
        : JSON.stringify(answer.body);
    headers['content-type'] = answer.contentType ?? 'application/json; charset=utf-8';
    headers['content-length'] = String(Buffer.byteLength(text));
    response.writeHead(answer.status, headers).end(text);
  }
}

/** The first segments of the control routes (others count together for the rate limit). */
const CONTROL_ROUTES: ReadonlySet<string> = new Set([
  'clock',
  'advance',
  'run_until_idle',
  'connections',
  'snapshot',
  'reset',
]);

/** Timers one request may fire to catch a paced clock up with the wall. */
const SYNC_TIMERS = 50_000;

/** A clock move was asked for while another is under way. */
class ClockBusyError extends Error {
  constructor(readonly moving: string) {
    super(`the clock is busy with ${moving}`);
  }
}

function clockBusy(moving: string): ControlResponse {
  return {
    status: 409,
    body: {
      code: 'conflict',
      message: `the clock is busy with ${moving}: wait for it to answer, then try again`,
    },
  };
}

/**
 * Writes `chunks` to `response` in pieces of about 64 KiB, as fast as the client reads; a client that
 * goes away ends the stream (and frees what it held) instead of leaving it waiting.
 */
async function streamTo(response: ServerResponse, chunks: Iterable<string>): Promise<void> {
  try {
    await pipeline(Readable.from(batched(chunks)), response);
  } catch {
    response.destroy(); // the client left, or the log could not be read: nothing more to send
  }
}

/** Joins small strings into pieces of about 64 KiB. */
function* batched(chunks: Iterable<string>): Generator<string> {
  let pending = '';
  for (const chunk of chunks) {
    pending += chunk;
    if (pending.length < 65_536) continue;
    yield pending;
    pending = '';
  }
  if (pending !== '') yield pending;
}

/** A request node could not parse: a JSON error instead of node's empty one, then close. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, code] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'invalid_input']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'request_timeout']
        : [400, 'Bad Request', 'invalid_input'];
  const text = JSON.stringify({
    code,
    message: `the request is not valid HTTP (${error.code ?? 'parse error'})`,
  });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

function headerOf(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function bearer(request: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/**
 * The route a request counts against for the per-route limit: the matched route pattern
 * (`GET /projects/{project_id}/operations/{operation_id}`), however its ids or slashes are spelled;
 * control routes by their first segment; every unmatched path of a method together.
 */
function rateRoute(method: string, path: string): string {
  const pathname = path.split('?')[0] ?? '';
  const segments = pathname.split('/').filter((segment) => segment !== '');
  if (segments[0] === '_sim') {
    const control = segments[1] ?? '';
    return `${method} /_sim/${CONTROL_ROUTES.has(control) ? control : '?'}`;
  }
  const match = router.match(method, pathname);
  return match.ok ? `${match.value.route.method} ${match.value.route.pattern}` : `${method} ?`;
}

/** The first segment of `path` (before `?`) that does not percent-decode, if any. */
function malformedSegment(path: string): string | undefined {
  for (const segment of (path.split('?')[0] ?? '').split('/')) {
    try {
      decodeURIComponent(segment);
    } catch {
      return segment;
    }
  }
  return undefined;
}

function notFound(message: string): ControlResponse {
  return { status: 404, body: { code: 'not_found', message } };
}

/**
 * An exception outside the route handlers (reading, writing or sending): a 500 if nothing was sent
 * yet, else the connection is dropped; the server keeps serving either way.
 */
function crashed(response: ServerResponse): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const text = JSON.stringify({
    code: 'internal_error',
    message: 'the simulator failed on this request',
  });
  response
    .writeHead(500, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
    })
    .end(text);
}

/** An error thrown while answering, as a response that says what went wrong but never how. */
function failure(error: unknown): ControlResponse {
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  if (error instanceof StepLimitError) return { status: 409, body: { code: 'conflict', message } };
  if (error instanceof ClockBusyError) return clockBusy(error.moving);
  if (error instanceof StateFileError)
    return { status: 503, body: { code: 'service_unavailable', message } };
  return {
    status: 500,
    body: { code: 'internal_error', message: 'the simulator failed on this request' },
  };
}
