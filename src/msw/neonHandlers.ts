/**
 * `computesim/msw`: msw request handlers that answer, in process, what an app's Neon code sends to
 * the real service: the API at its real base URL (`https://console.neon.tech/api/v2/…`, so
 * `createApiClient` with its defaults, `@neondatabase/toolkit` and plain `fetch` work unchanged) and
 * the serverless driver's SQL over HTTP at each compute's default endpoint
 * (`https://api.<region>.<domain>/sql`) and its `Pool` and `Client` over a WebSocket
 * (`wss://<compute host>/v2`, where the runtime has a global `WebSocket` for msw to intercept), run
 * on an embedded Postgres per branch database.
 *
 * Time skips by default, and only for what a request waits for: an API request about a project
 * has the simulation moved on until that project's operations have ended (so a poll sees them
 * finished, and a change meets no lock), a SQL request until its compute is up; nothing else moves
 * the clock, so reading the API never lets an idle compute suspend under an app. App code needs no
 * `advance` calls. `time: 'hold'` keeps the clock still for tests that move it themselves.
 */
import { API_PREFIX } from '../api/apiPrefix.js';
import { fetchHandler } from '../service/fetchHandler.js';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http, HttpResponse, ws, type HttpHandler, type WebSocketHandler } from 'msw';
import { RandomSource } from '../core/randomSource.js';
import { SQL_STATES } from '../domain/sqlState.js';
import { MSW_SQL_FEATURE } from '../packages/optionalFeatures.js';
import { endpointFromHost } from '../pg/endpointRouting.js';
import { PostgresFront } from '../pg/postgresFront.js';
import { webSocketStream } from './webSocketStream.js';
import { methodRefusal, SQL_ALLOW, SQL_PREFLIGHT_HEADERS } from '../pg/sqlOverHttp.js';
import type { Simulation } from '../simulation/simulation.js';
import { DAY_MS } from '../core/duration.js';

/** How the handlers serve. */
export interface NeonHandlersOptions {
  /** The API's base URL. Default `https://console.neon.tech/api/v2`. */
  readonly apiBase?: string;
  /** Where branch databases are kept. Default: a temporary folder, removed by `close`. */
  readonly dataDir?: string;
  /**
   * `skip` (default): a request that waits for simulated work moves the clock to when it is done
   * (an API request about a project, until the project's operations have ended; a SQL request,
   * until its compute is up), and no further; `hold`: the clock moves only when the test moves it.
   */
  readonly time?: 'skip' | 'hold';
  /** Faults injected at the edge, drawn from the simulation's seed (the same seed, the same faults). */
  readonly faults?: {
    /**
     * The share of SQL-over-HTTP requests answered `57P01 terminating connection` before their
     * statement runs (so a retry is safe), as a compute restart under the request would. 0-1.
     */
    readonly sqlDropRate?: number;
  };
}

/** msw handlers, with `close` to stop the embedded databases once the test is done. */
export type NeonHandlers = (HttpHandler | WebSocketHandler)[] & {
  /** Closes the branch databases (and removes a temporary data folder). */
  close(): Promise<void>;
};

/**
 * The sockets a front serves, across handler sets: msw can hand one socket to a link twice (an
 * `msw/node` server that listened while the runtime had no global `WebSocket` leaves its
 * `connection` listener on the shared interceptor, and the next server's adds a second), and two
 * fronts answering one client garble its replies.
 */
const served = new WeakSet<object>();

const SQL_HOSTS = /^https:\/\/(?:api|apiauth)\.[^/]+\/sql$/;
/**
 * Where the serverless driver's `Pool` and `Client` open their WebSocket (its `wsProxy` default:
 * the compute's host, `/v2`): hosts under `hostDomain` only, so another service's `/v2` socket is
 * left to reach it.
 */
function postgresWebSockets(hostDomain: string): RegExp {
  const domain = hostDomain.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^wss?://[^/?#]+\\.${domain}(?::\\d+)?/v2(?:\\?.*)?$`);
}

/** Handlers for msw's `setupServer` that answer the Neon API and SQL over HTTP from `sim`. */
export function neonHandlers(sim: Simulation, options: NeonHandlersOptions = {}): NeonHandlers {
  const apiBase = (options.apiBase ?? 'https://console.neon.tech/api/v2').replace(/\/$/, '');
  const skip = (options.time ?? 'skip') === 'skip';
  const dropRate = options.faults?.sqlDropRate ?? 0;
  if (!(dropRate >= 0 && dropRate <= 1))
    throw new RangeError(`faults.sqlDropRate must be between 0 and 1, got ${String(dropRate)}`);
  const root = options.dataDir ?? mkdtempSync(join(tmpdir(), 'computesim-msw-'));
  let sqlRequests = 0;
  let closed = false;
  let ready: Promise<PostgresFront> | undefined;
  const frontOf = () =>
    (ready ??= (async () => {
      const front = new PostgresFront(
        {
          sim,
          act: (work) => work(sim),
          onReplaced: () => () => undefined,
          paced: false,
          ...(skip ? { skipAhead: () => skipAhead(sim) } : {}),
        },
        { root, tls: false, hostDomain: sim.profile.hostDomain, feature: MSW_SQL_FEATURE },
      );
      await front.prepare();
      return front;
    })());
  const answer = fetchHandler(sim);
  const handlers = [
    http.all(`${apiBase}/*`, async ({ request }) => {
      const url = new URL(request.url);
      const apiPath = url.pathname.slice(new URL(apiBase).pathname.length);
      if (skip) settleProject(sim, /^\/projects\/([^/]+)/.exec(apiPath)?.[1]);
      const path = `${API_PREFIX}${apiPath}${url.search}`;
      return answer(new Request(new URL(path, 'http://computesim.local'), request));
    }),
    http.post(SQL_HOSTS, async ({ request }) => {
      const index = sqlRequests++;
      if (dropRate > 0 && RandomSource.derive(sim.seed, 'msw-sql-drops', index).chance(dropRate)) {
        const { sqlstate, message } = SQL_STATES.terminated;
        return HttpResponse.json({ severity: 'FATAL', code: sqlstate, message }, { status: 400 });
      }
      let body: unknown;
      try {
        body = await request.json();
      } catch {
        return HttpResponse.json(
          { code: '08P01', message: 'the request body is not JSON' },
          { status: 400 },
        );
      }
      const sqlFront = await frontOf();
      const answer = await sqlFront.answerSql(
        (name) => request.headers.get(name) ?? undefined,
        body,
      );
      return new HttpResponse(answer.json, {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
      });
    }),
    // Postgres over a WebSocket, into the same front: the compute named by the host (or by the
    // `address` the driver's proxy form gives), or else by the password.
    ws
      .link(postgresWebSockets(sim.profile.hostDomain))
      .addEventListener('connection', ({ client }) => {
        // msw hands a socket to every link that matches it, closed handlers' too (a test that
        // makes handlers per run): a closed one leaves it to the live ones.
        if (closed || served.has(client)) return;
        served.add(client);
        const address = client.url.searchParams.get('address') ?? client.url.host;
        const host = address.replace(/:\d+$/, '');
        // The stream listens at once: what the client sends while the front is still being made waits in it.
        const stream = webSocketStream(client);
        void frontOf().then(
          (front) => front.acceptStream(stream, endpointFromHost(host)),
          () => {
            stream.destroy();
            client.close(1011, 'the Postgres front could not start');
          },
        );
      }),
    // As the real proxy: a CORS preflight is answered, any other method refused.
    http.all(SQL_HOSTS, ({ request }) => {
      if (request.method === 'OPTIONS')
        return new HttpResponse(null, { status: 200, headers: SQL_PREFLIGHT_HEADERS });
      const refused = methodRefusal(request.method);
      return new HttpResponse(refused.json, {
        status: refused.status,
        headers: { 'content-type': 'application/json', allow: SQL_ALLOW },
      });
    }),
  ] as NeonHandlers;
  handlers.close = async () => {
    closed = true;
    // A front that never started (PGlite not installed, say) has nothing to close.
    await (await ready?.catch(() => undefined))?.close();
    if (options.dataDir === undefined) await rm(root, { recursive: true, force: true });
  };
  return handlers;
}

/** Statuses after which an operation changes no more. */
const ENDED = new Set(['finished', 'skipped', 'error', 'cancelled']);

/**
 * Moves `sim` on until the operations of project `projectId` have ended (nothing when it has none
 * under way, or names no project). An operation that never ends (a fault profile's stuck one) is
 * given up on after a day of virtual time: the request is answered as things are.
 */
function settleProject(sim: Simulation, projectId: string | undefined): void {
  if (projectId === undefined) return;
  let id = projectId;
  try {
    id = decodeURIComponent(projectId);
  } catch {
    // A malformed escape names no project: the API answers it as it does.
  }
  const busy = (state: Simulation['state']) =>
    Object.values(state.projects[id]?.operations ?? {}).some(
      (operation) => !ENDED.has(operation.status),
    );
  if (!busy(sim.state)) return;
  const deadline = sim.now() + DAY_MS;
  try {
    sim.runUntil((state) => !busy(state) || sim.now() >= deadline);
  } catch {
    // Nothing left to run while it is still busy, or the step guard: answer as things are.
  }
}

/** Moves `sim` to the next instant work is due; false when none is. */
function skipAhead(sim: Simulation): boolean {
  const due = sim.pending.nextDue;
  if (!Number.isFinite(due) || sim.pending.timers === 0) return false;
  sim.advanceTo(Math.max(due, sim.now()));
  return true;
}
