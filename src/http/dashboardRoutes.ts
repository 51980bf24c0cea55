/**
 * The dashboard's answers, for its rows of the served routes (servedRoutes.ts): the page (no data
 * in it, so no key; the first answer waits for its script, bundled on first use when running from
 * the TypeScript sources), the event stream, the figures on screen and the report of the run so
 * far, the last three with the control routes' key rules.
 */
import { dashboardView, runProjections, type RunProjections } from '../dashboard/dashboardView.js';
import { dashboardPage } from '../dashboard/dashboardPage.js';
import { servedRunReport } from '../dashboard/servedRunReport.js';
import { pageScript } from '../programs/pageScript.js';
import { bearer, controlAccess } from '../service/controlAccess.js';
import { errorAnswer, type Answer } from '../service/errorTable.js';
import { API_PREFIX } from '../api/apiPrefix.js';
import type { HttpCore } from '../service/httpCore.js';
import { JSON_TYPE, type Reply } from '../service/httpReply.js';
import type { DashboardAnswer, DashboardRoute } from './servedRoutes.js';
import type { RequestLike } from '../service/requestLike.js';
import type { Simulation } from '../simulation/simulation.js';
import type { DashboardFeed } from './dashboardFeed.js';
import { slicedRunProjections, slicedRunReport } from './slicedReport.js';

/** A key as the dashboard's data routes see it: project keys may not watch the whole service. */
interface DashboardKey {
  readonly kind: 'personal' | 'organization' | 'project';
}

/** Lanes the page may ask for at once. */
const MAX_LANES = 200;

const HTML_TYPE = 'text/html; charset=utf-8';
const NO_STORE = { 'cache-control': 'no-store' };

type Handler = (request: RequestLike, query: URLSearchParams) => Reply;

/** The dashboard of one served simulation. */
export class DashboardRoutes {
  /**
   * The projections last made or being made, and of which simulation, log length and clock: made
   * again only when the log or clock moved, in slices (see slicedReport.ts).
   */
  #made:
    | {
        readonly sim: Simulation;
        readonly events: number;
        readonly now: number;
        readonly run: Promise<RunProjections>;
      }
    | undefined;
  readonly #handlers: Readonly<Record<DashboardAnswer, Handler>> = {
    page: () => this.#pageReply(),
    events: (request) => this.#events(request),
    view: (_, query) => this.#view(query),
    report: (request) => this.#report(request.method),
  };
  /** The page, once its script was had. */
  #page: string | undefined;

  constructor(
    readonly core: HttpCore,
    readonly feed: DashboardFeed,
    readonly keys: ReadonlyMap<string, DashboardKey>,
  ) {}

  /** The answer to `request`, which the served routes gave to the dashboard's row `route`. */
  answer(request: RequestLike, route: DashboardRoute): Reply {
    const url = new URL(request.url, 'http://localhost');
    const method = request.method.toUpperCase();
    if (!route.methods.split(', ').includes(method)) {
      discardBody(request);
      return json(
        errorAnswer('method_not_allowed', `method ${method} is not allowed on ${url.pathname}`, {
          allow: route.methods,
        }),
      );
    }
    const { responder } = route;
    if (responder.keyed) {
      const denied = this.#access(request.headers.get('authorization'));
      if (denied !== undefined) return json(denied);
    }
    const reply = this.#handlers[responder.answer](request, url.searchParams);
    return method === 'HEAD' && typeof reply.body === 'string' ? { ...reply, body: null } : reply;
  }

  #sim(): Simulation {
    // The server gives its core only Simulations (see SimServer).
    return this.core.sim as Simulation;
  }

  /** As the control routes: a key the server knows, not limited to one project. */
  #access(authorization: string | null): Answer | undefined {
    return controlAccess(this.keys, bearer(authorization), 'watch the whole simulation');
  }

  #pageReply(): Reply {
    if (this.#page !== undefined) return text(200, HTML_TYPE, this.#page);
    return later(HTML_TYPE, async () => {
      this.#page ??= dashboardPage(await pageScript('browser/dashboard'), API_PREFIX);
      return this.#page;
    });
  }

  #events(request: RequestLike): Reply {
    return {
      status: 200,
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      },
      body: this.feed.open(request.headers.get('last-event-id')),
    };
  }

  #view(query: URLSearchParams): Reply {
    const first = whole(query.get('first'), 0);
    const count = whole(query.get('count'), 12);
    const project = query.get('project') ?? undefined;
    if (first === undefined || count === undefined || count < 1 || count > MAX_LANES)
      return json(
        errorAnswer(
          'invalid_input',
          `first must be a whole number from 0, count one from 1 to ${MAX_LANES}`,
        ),
      );
    if (project !== undefined && (project === '' || project.length > 200))
      return json(errorAnswer('invalid_input', 'project must be a project id'));
    const sim = this.#sim();
    const window = { first, count, ...(project === undefined ? {} : { project }) };
    const mode = this.core.clock.name;
    const state = sim.state;
    // A log that keeps no events cannot be projected: that fails at once, as it always has.
    if (!sim.log.keepsEvents)
      return json({
        status: 200,
        body: { ...dashboardView(runProjections(sim.log, sim.now()), state, window), mode },
      });
    const made = this.#made;
    const run =
      made !== undefined &&
      made.sim === sim &&
      made.events === sim.log.length &&
      made.now === sim.now()
        ? made.run
        : slicedRunProjections(sim);
    if (run !== made?.run) {
      this.#made = { sim, events: sim.log.length, now: sim.now(), run };
      // A failed build is told through the body (below), and not kept.
      run.catch(() => {
        if (this.#made?.run === run) this.#made = undefined;
      });
    }
    return later(JSON_TYPE, async () =>
      JSON.stringify({ ...dashboardView(await run, state, window), mode }),
    );
  }

  /**
   * The report of the run so far, as a download: its headers at once, its body when built (in
   * slices, between other requests: see slicedReport.ts). A client gone stops the build. A log
   * that keeps no events fails as before, at once.
   */
  #report(method: string): Reply {
    const sim = this.#sim();
    const headers = {
      'content-type': HTML_TYPE,
      ...NO_STORE,
      'content-disposition': 'attachment; filename="computesim-report.html"',
    };
    if (method.toUpperCase() === 'HEAD') return { status: 200, headers, body: null };
    if (!sim.log.keepsEvents)
      return { status: 200, headers, body: servedRunReport(sim, this.feed.requests) };
    const stop = new AbortController();
    const html = slicedRunReport(sim, this.feed.requests, stop.signal);
    // A failed build is told through the body, not as an unhandled rejection.
    html.catch(() => undefined);
    return { ...later(HTML_TYPE, () => html, stop), headers };
  }
}

/**
 * A 200 whose headers go at once and whose body is `make`'s text when it is made (a failure drops
 * the connection); a client gone aborts `stop`.
 */
function later(contentType: string, make: () => Promise<string>, stop?: AbortController): Reply {
  return {
    status: 200,
    headers: { 'content-type': contentType, ...NO_STORE },
    body: new ReadableStream<Uint8Array>({
      async pull(controller) {
        controller.enqueue(new TextEncoder().encode(await make()));
        controller.close();
      },
      cancel() {
        stop?.abort();
      },
    }),
  };
}

/** A whole number from a query parameter (absent: `fallback`; not one: `undefined`). */
function whole(value: string | null, fallback: number): number | undefined {
  if (value === null) return fallback;
  return /^\d{1,9}$/.test(value) ? Number(value) : undefined;
}

function text(status: number, contentType: string, body: string): Reply {
  return { status, headers: { 'content-type': contentType, ...NO_STORE }, body };
}

function json(answer: Answer): Reply {
  return {
    status: answer.status,
    headers: { 'content-type': JSON_TYPE, ...NO_STORE, ...answer.headers },
    body: JSON.stringify(answer.body),
  };
}

/** Drops a body nobody will read, so the connection can carry the answer. */
function discardBody(request: RequestLike): void {
  const body = request.body;
  if (body === null) return;
  if ('discard' in body) body.discard();
  else void body.cancel().catch(() => undefined);
}
