/**
 * Everything `serve` answers on its HTTP port, in one table: SQL over HTTP, Postgres over a
 * WebSocket, the dashboard's page and data, and the HTTP core (the public v2 API of `ROUTES` and
 * the control routes of `CONTROL_ROUTES` under `/_sim`). The server dispatches by this table and
 * nothing else; docs/serving.md shows it, and a test keeps the two the same.
 */
import { API_PREFIX } from '../api/apiPrefix.js';
import { SQL_ALLOW } from '../pg/sqlOverHttp.js';
import { pathOf } from '../service/requestLike.js';
import { CONTROL_PREFIX } from '../service/simControl.js';

/** The dashboard's answers, one per route of the table. */
export type DashboardAnswer = 'page' | 'events' | 'view' | 'report';

/** Who answers a route's requests. */
type Responder =
  | { readonly by: 'sql' }
  | { readonly by: 'websocket' }
  /** `keyed`: only a key that may watch the whole simulation (as the control routes). */
  | { readonly by: 'dashboard'; readonly answer: DashboardAnswer; readonly keyed: boolean }
  | { readonly by: 'core' };

/** One row: a path (exact, or a prefix ending in `*`), how it is reached, who answers, what for. */
export interface ServedRoute {
  readonly path: string;
  /** `upgrade`: a WebSocket upgrade; `request`: any other HTTP request. */
  readonly reached: 'request' | 'upgrade';
  /** The methods it answers, as an `Allow` header lists them (`any`: the core says per route). */
  readonly methods: string;
  readonly responder: Responder;
  /** What the route is for, in a line (shown in docs/serving.md). */
  readonly what: string;
}

const CONTROL = `${API_PREFIX}${CONTROL_PREFIX}`;

/** Every route of `serve`'s HTTP port, first match wins. */
export const SERVED_ROUTES: readonly ServedRoute[] = [
  {
    path: '/sql',
    reached: 'request',
    methods: SQL_ALLOW,
    responder: { by: 'sql' },
    what: "SQL over HTTP, the serverless driver's `neon()` (needs `--pg-port`)",
  },
  {
    path: '/v2',
    reached: 'upgrade',
    methods: 'GET',
    responder: { by: 'websocket' },
    what: "Postgres over a WebSocket, the driver's `Pool` and `Client` (needs `--pg-port`)",
  },
  {
    path: '/',
    reached: 'request',
    methods: 'GET, HEAD',
    responder: { by: 'dashboard', answer: 'page', keyed: false },
    what: 'the live dashboard page (no data in it: no key)',
  },
  {
    path: `${CONTROL}/events`,
    reached: 'request',
    methods: 'GET, HEAD',
    responder: { by: 'dashboard', answer: 'events', keyed: true },
    what: "the dashboard's event stream (Server-Sent Events, resumable)",
  },
  {
    path: `${CONTROL}/view`,
    reached: 'request',
    methods: 'GET, HEAD',
    responder: { by: 'dashboard', answer: 'view', keyed: true },
    what: "the dashboard's figures and lanes",
  },
  {
    path: `${CONTROL}/report`,
    reached: 'request',
    methods: 'GET, HEAD',
    responder: { by: 'dashboard', answer: 'report', keyed: true },
    what: 'the HTML report of the run so far, as a download',
  },
  {
    path: '*',
    reached: 'request',
    methods: 'any',
    responder: { by: 'core' },
    what:
      `the HTTP core: the public API under \`${API_PREFIX}\` (\`ROUTES\`), the control routes ` +
      `under \`${CONTROL}\` (\`CONTROL_ROUTES\`), a JSON 404 elsewhere`,
  },
];

/** A row the dashboard answers. */
export type DashboardRoute = ServedRoute & {
  readonly responder: Extract<Responder, { by: 'dashboard' }>;
};

/** The route of a request or an upgrade to `pathname`, or `undefined` (an upgrade no route takes). */
export function servedRouteOf(
  pathname: string,
  reached: ServedRoute['reached'],
): ServedRoute | undefined {
  return SERVED_ROUTES.find(
    (route) =>
      route.reached === reached &&
      (route.path.endsWith('*')
        ? pathname.startsWith(route.path.slice(0, -1))
        : pathname === route.path),
  );
}

/**
 * The path of a request's absolute URL as the HTTP core reads it (`http://h/sql?x=1#f` → `/sql`):
 * raw, no dot segments resolved, so a row and the core never disagree on which path was asked.
 */
export function pathnameOf(url: string): string {
  const path = pathOf(url);
  const query = path.indexOf('?');
  return query === -1 ? path : path.slice(0, query);
}

/** Whether `route` is one of the dashboard's rows. */
export function isDashboardRoute(route: ServedRoute | undefined): route is DashboardRoute {
  return route?.responder.by === 'dashboard';
}
