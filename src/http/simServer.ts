/**
 * `computesim serve` on node:http: a thin shell around the HTTP core (`HttpCore`). It turns each
 * IncomingMessage into a request (the fields of a Web `Request` the core reads; the body streamed
 * from the socket), calls the core with the connection's client address, and writes the reply back,
 * streamed bodies with backpressure. It injects what only node has: the state file, the wall clock, the memory
 * check. Requests node cannot parse are answered in clientErrors.ts, before any `Request` exists.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ROUTES } from '../api/routeTable.js';
import { publicContract } from '../schema/publicSchema.js';
import { Simulation } from '../simulation/simulation.js';
import type { SimulationOptions } from '../simulation/simulationOptions.js';
import type { ClockMode } from '../service/clockMode.js';
import { API_PREFIX } from '../api/apiPrefix.js';
import { HttpCore, type AnsweredRequest } from '../service/httpCore.js';
import type { HttpContext } from '../service/httpContext.js';
import { JSON_TYPE, type Reply } from '../service/httpReply.js';
import type { CollectableBody, CollectedBody, RequestLike } from '../service/requestLike.js';
import type { PostgresAddress } from '../domain/connectionUri.js';
import { PostgresFront, type PostgresFrontOptions } from '../pg/postgresFront.js';
import { answerSqlRequest } from './sqlRoute.js';
import { isDashboardRoute, pathnameOf, servedRouteOf } from './servedRoutes.js';
import { refuseUpgrade, WebSocketRoute } from './webSocketRoute.js';
import { OpenReplies } from './clientErrors.js';
import { DashboardFeed } from './dashboardFeed.js';
import { DashboardRoutes } from './dashboardRoutes.js';
import { memoryFull } from './memoryFull.js';
import { StreamDropped } from './streamDropped.js';
import type { RateLimits } from '../api/rateLimiter.js';
import type { SliceStop } from '../service/slicedRun.js';
import type { StateFile } from './stateFile.js';

export { PG_ENGINES, type PostgresEngine } from '../pg/postgresFront.js';

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
  /** Told of every request the API answered (the dashboard's feed hears of them too). */
  readonly onAnswered?: (request: AnsweredRequest) => void;
}

/** A served simulation. */
export class SimServer {
  /** The node:http server the socket is served by. */
  readonly server: Server;
  /**
   * The HTTP core: `core.fetch` answers a `Request` as the socket does, the dashboard's rows
   * aside. @internal Not part of `computesim/serve`'s contract: use `fetch`.
   */
  readonly core: HttpCore;
  /**
   * The live dashboard's answers: its page at `/`, its event stream and figures under
   * `/api/v2/_sim/`. @internal Not part of `computesim/serve`'s contract.
   */
  readonly dashboard: DashboardRoutes;
  readonly #feed: DashboardFeed;
  readonly #writer: StateFile | undefined;
  readonly #replies = new OpenReplies();
  readonly #webSockets = new WebSocketRoute();
  #postgres: { readonly front: PostgresFront; readonly address: PostgresAddress } | undefined;

  constructor(
    sim: Simulation,
    readonly options: SimServerOptions,
  ) {
    if (options.keys.length === 0) throw new RangeError('serve: give at least one API key');
    const withKeys = (next: Simulation): Simulation => {
      next.servePostgresAt(this.#postgres?.address);
      for (const key of options.keys)
        next.addApiKey({
          kind: key.kind,
          key: key.key,
          ...(key.projectId === undefined ? {} : { projectId: key.projectId }),
        });
      return next;
    };
    this.#writer = options.stateFile;
    this.core = new HttpCore(withKeys(sim), {
      keys: new Map(options.keys.map((key) => [key.key, key])),
      clock: options.clock,
      wallNow: options.wallNow ?? Date.now,
      renew: {
        fresh: (seed) => withKeys(new Simulation({ ...options.simulation, seed })),
        fromJSONL: (text) => withKeys(Simulation.fromJSONL(text).simulation),
        replay: (events) => withKeys(Simulation.replay(events)),
      },
      memoryFull: options.memoryFull ?? memoryFull,
      ...(options.stateFile === undefined ? {} : { store: options.stateFile }),
      ...(options.rateLimits === undefined ? {} : { rateLimits: options.rateLimits }),
      ...(options.onInternalError === undefined
        ? {}
        : { onInternalError: options.onInternalError }),
      onAnswered: (request) => {
        this.#feed.answered(request);
        options.onAnswered?.(request);
      },
    });
    this.#feed = new DashboardFeed(this.core, randomBytes(6).toString('hex'));
    this.dashboard = new DashboardRoutes(
      this.core,
      this.#feed,
      this.core.options.keys ?? new Map(),
    );
    this.server = createServer((incoming, outgoing) => this.#exchange(incoming, outgoing));
    this.server.keepAliveTimeout = 5_000;
    this.server.on('clientError', this.#replies.clientError);
    this.server.on('upgrade', (incoming, socket, head) => {
      const route = servedRouteOf(pathnameOf(urlOf(incoming)), 'upgrade');
      if (route?.responder.by === 'websocket')
        this.#webSockets.upgrade(incoming, socket, head, this.#postgres?.front);
      else refuseUpgrade(socket, 'no such route');
    });
  }

  /** The simulation being served (it changes on `_sim/reset`). */
  get sim(): Simulation {
    // The core holds only simulations this server gave it or made through its renewal: Simulations.
    return this.core.sim as Simulation;
  }

  /** Listens on `host:port` (0: any free port); resolves to the API's base URL. */
  listen(port: number, host = '127.0.0.1'): Promise<string> {
    // The schema every request is checked against, read before the first client waits for it.
    publicContract().prepare(ROUTES);
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
   * Serves the computes over the Postgres wire protocol on `host:port` too (0: any free port): the
   * connection URIs the API answers point there from now on. Resolves to the address.
   */
  async listenPostgres(
    port: number,
    host = '127.0.0.1',
    options: PostgresFrontOptions,
  ): Promise<PostgresAddress> {
    const core = this.core;
    const front = new PostgresFront(
      {
        get sim() {
          return core.sim as Simulation;
        },
        act: (work) => core.act((sim) => work(sim as Simulation)),
        onReplaced: (listener) => core.onReplaced(() => listener()),
        get paced() {
          return core.clock.rate > 0;
        },
      },
      { hostDomain: this.sim.profile.hostDomain, ...options },
    );
    // The template database is made before anyone connects, and the wall time it takes is not
    // simulated time: computes do not age while the server gets ready.
    this.core.skipWallTime();
    await Promise.all([front.prepare(), this.#webSockets.prepare()]);
    this.core.skipWallTime();
    const address = await front.listen(port, host);
    this.#postgres = { front, address };
    this.sim.servePostgresAt(address);
    return address;
  }

  /** The Postgres front, when `listenPostgres` started one. */
  get postgres(): PostgresFront | undefined {
    return this.#postgres?.front;
  }

  /**
   * Stops accepting connections and closes idle ones at once; any still open after `graceMs` (a
   * keep-alive client mid-request) are closed too, so a shutdown never waits on a client.
   */
  async close(graceMs = 500): Promise<void> {
    this.core.close();
    this.#feed.close();
    this.#webSockets.close();
    await this.#postgres?.front.close();
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

  /**
   * One request, answered by its row of `SERVED_ROUTES`: one hop from the socket to its responder
   * and one back (`serve` never rejects). An exception outside the core is a 500, or a dropped
   * connection once the reply has begun.
   */
  #exchange(incoming: IncomingMessage, outgoing: ServerResponse): void {
    this.#replies.opened(incoming, outgoing);
    try {
      const url = urlOf(incoming);
      const route = servedRouteOf(pathnameOf(url), 'request');
      if (route?.responder.by === 'sql') {
        answerSqlRequest(incoming, outgoing, this.#postgres?.front).catch((error: unknown) =>
          this.#crashed(outgoing, error),
        );
        return;
      }
      const request = new NodeRequest(incoming, url);
      if (isDashboardRoute(route)) {
        this.#write(outgoing, this.dashboard.answer(request, route));
        return;
      }
      void this.core
        .serve(request, contextOf(incoming, outgoing))
        .then((reply) => this.#write(outgoing, reply));
    } catch (error) {
      this.#crashed(outgoing, error);
    }
  }

  /**
   * Answers a request in process as the socket does, by the same table: the dashboard's routes and
   * the core (`core.fetch` alone knows nothing of the dashboard). SQL over HTTP and WebSockets need
   * the socket: in process, `computesim/msw` serves them.
   */
  async fetch(request: Request, context: HttpContext = {}): Promise<Response> {
    const route = servedRouteOf(pathnameOf(request.url), 'request');
    if (isDashboardRoute(route)) {
      const reply = this.dashboard.answer(request, route);
      return new Response(reply.body, { status: reply.status, headers: reply.headers });
    }
    return this.core.fetch(request, context);
  }

  #write(outgoing: ServerResponse, reply: Reply): void {
    try {
      send(outgoing, reply)?.catch((error: unknown) => this.#crashed(outgoing, error));
    } catch (error) {
      this.#crashed(outgoing, error);
    }
  }

  #crashed(outgoing: ServerResponse, error: unknown): void {
    this.options.onInternalError?.(error);
    crashed(outgoing);
  }
}

/**
 * What the core knows of the connection: the client's address, and whether the client has gone (its
 * connection closed before the answer was written), which stops a clock move it started.
 */
function contextOf(incoming: IncomingMessage, outgoing: ServerResponse): HttpContext {
  const address = incoming.socket.remoteAddress;
  const gone = () => outgoing.destroyed && !outgoing.writableFinished;
  return address === undefined ? { gone } : { clientAddress: address, gone };
}

/** The headers of a node request, read as a Web `Headers`' `get` reads them. */
class NodeHeaders {
  constructor(readonly headers: IncomingMessage['headers']) {}

  get(name: string): string | null {
    const value = this.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }
}

/**
 * A node request as the core reads a `Request` (method, URL, headers, body), without building one:
 * a Web `Request` costs more than the rest of a GET. Its body is collected from the socket's events.
 */
class NodeRequest implements RequestLike {
  readonly method: string;
  readonly url: string;
  readonly headers: NodeHeaders;
  readonly body: CollectableBody | null;

  constructor(incoming: IncomingMessage, url: string) {
    const method = incoming.method ?? 'GET';
    const hasBody =
      method !== 'GET' &&
      method !== 'HEAD' &&
      (incoming.headers['transfer-encoding'] !== undefined ||
        Number(incoming.headers['content-length'] ?? 0) > 0);
    if (!hasBody) incoming.resume();
    this.method = method;
    this.url = url;
    this.headers = new NodeHeaders(incoming.headers);
    this.body = hasBody ? new NodeBody(incoming) : null;
  }
}

/** The absolute URL of a request: its target on this server's origin. */
function urlOf(incoming: IncomingMessage): string {
  const target = incoming.url ?? '/';
  // Origin-form (`/api/v2/…`) is joined as it is, so `//x` stays a path and never names a host.
  if (target.startsWith('/')) return `http://localhost${target}`;
  try {
    const absolute = new URL(target);
    return `http://localhost${absolute.pathname}${absolute.search}`;
  } catch {
    return `http://localhost/${target}`;
  }
}

/**
 * The body of `incoming`, collected from its events (no Web stream: building one per request cost
 * more than the rest of a small POST). Past the limit the rest is discarded instead of destroying
 * the socket, so the refusal can still be written.
 */
class NodeBody implements CollectableBody {
  constructor(readonly incoming: IncomingMessage) {}

  collect(limit: number): Promise<CollectedBody> {
    const incoming = this.incoming;
    return new Promise((resolve) => {
      const chunks: Uint8Array[] = [];
      let size = 0;
      const stop = (collected: CollectedBody) => {
        incoming.off('data', onData).off('end', onEnd).off('error', onError);
        resolve(collected);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > limit) {
          stop({ ok: false, reason: 'too_large' });
          incoming.resume();
          return;
        }
        chunks.push(chunk);
      };
      const onEnd = () => stop({ ok: true, chunks, size });
      const onError = () => stop({ ok: false, reason: 'unreadable' });
      incoming.on('data', onData).on('end', onEnd).on('error', onError);
    });
  }

  discard(): void {
    this.incoming.resume();
  }
}

/**
 * Writes `reply` to `outgoing`: a whole text at once, in this turn; a stream chunk by chunk
 * (backpressure), resolving when it is written.
 */
function send(outgoing: ServerResponse, reply: Reply): Promise<void> | undefined {
  if (typeof reply.body === 'string') {
    outgoing
      .writeHead(reply.status, {
        ...reply.headers,
        'content-length': String(Buffer.byteLength(reply.body)),
      })
      .end(reply.body);
    return undefined;
  }
  outgoing.writeHead(reply.status, reply.headers);
  if (reply.body === null) {
    outgoing.end();
    return undefined;
  }
  // The status and headers go now, before the first chunk: a body that takes long to make (the
  // report of a long run) is then under way for the client, not silent.
  outgoing.flushHeaders();
  return sendStream(outgoing, reply.body);
}

async function sendStream(
  outgoing: ServerResponse,
  body: ReadableStream<Uint8Array>,
): Promise<void> {
  const reader = body.getReader();
  // A reader gone (a page closed) ends a long-lived stream now, not at its next chunk.
  const gone = () => void reader.cancel().catch(() => undefined);
  outgoing.once('close', gone);
  try {
    for (;;) {
      if (outgoing.destroyed) {
        await reader.cancel();
        return;
      }
      const next = await reader.read();
      if (next.done === true) break;
      // Waiting for a reader that does not read ends when the body's producer drops it.
      if (!outgoing.write(next.value)) await Promise.race([drained(outgoing), reader.closed]);
    }
    outgoing.end();
  } catch (error) {
    // A reader too slow for its stream: the connection goes, with whatever it still held.
    if (!(error instanceof StreamDropped)) throw error;
    outgoing.destroy();
  } finally {
    outgoing.off('close', gone);
    reader.releaseLock();
  }
}

/** Resolves once `outgoing` can take more, or is closed. */
function drained(outgoing: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off('drain', done);
      outgoing.off('close', done);
      resolve();
    };
    outgoing.on('drain', done);
    outgoing.on('close', done);
  });
}

/**
 * An exception outside the core (writing the response): a 500 if nothing was sent yet, else the
 * connection is dropped; the server keeps serving either way.
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
      'content-type': JSON_TYPE,
      'content-length': String(Buffer.byteLength(text)),
    })
    .end(text);
}
