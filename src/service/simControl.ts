/**
 * The control routes of a served simulation, under `/api/v2/_sim/`, as a route table: read the
 * clock, set its speed, step to the next due work, advance it, run until idle, open and close
 * simulated client connections, take a snapshot of the log, and reset. They act on the same simulation as the API routes, through its public
 * methods only. Bodies are checked like the public routes' (an unknown field is a 400 and nothing
 * changes). Every control route needs a key that is not project-scoped (`scope: 'control'`).
 */
import { parseDuration, tryParseDuration } from '../core/duration.js';
import { formatInstant, LAST_INSTANT } from '../core/instant.js';
import { err, ok, type Result } from '../core/result.js';
import { DEFAULT_IDLE_WITHIN } from '../engine/engine.js';
import { ClockError, LogFormatError } from '../engine/errors.js';
import { parseClockMode, type ClockMode } from './clockMode.js';
import type { ServedConnection, ServedSimulation } from './servedSimulation.js';
import { errorAnswer, type Answer } from './errorTable.js';

/** What the control routes work on; `reset` swaps the simulation. */
export interface ControlHost {
  readonly sim: ServedSimulation;
  readonly clockName: string;
  /**
   * Changes how the clock moves from now on (`manual` pauses a paced clock); an answer when it
   * cannot (a paced clock without a wall clock to follow).
   */
  setClock(mode: ClockMode): Answer | undefined;
  /**
   * Moves virtual time to `target` (checked: not before now, not past the last instant), in slices
   * while other requests are served; resolves to an error answer if it stopped short.
   */
  advanceTo(target: number): Promise<Answer | undefined>;
  /** Runs until idle or until `within` ms of virtual time have passed, in slices like `advanceTo`. */
  runUntilIdle(within: number): Promise<Answer | undefined>;
  /**
   * Stops the clock move under way at its next slice and resolves once it has stopped (the clock
   * is free then); an answer when no move is under way.
   */
  stopMove(): Promise<Answer | undefined>;
  /**
   * Replaces the simulation: a fresh one with `seed`, or one rebuilt from a JSON Lines log; an
   * answer when it cannot (a simulation served in process cannot replace itself).
   */
  reset(from: { readonly seed?: number; readonly jsonl?: string }): Answer | undefined;
}

/** What a control route's handler gets: the host, the path parameters and the checked body. */
interface ControlInput {
  readonly host: ControlHost;
  readonly params: Readonly<Record<string, string>>;
  readonly body: Readonly<Record<string, unknown>>;
}

/** One control route; `pattern` is relative to `/api/v2`. */
export interface ControlRoute {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly pattern: string;
  /** Who may call it: a key that is not limited to one project. */
  readonly scope: 'control';
  /** The keys its body may have (none: it takes no body). */
  readonly bodyKeys: readonly string[];
  readonly handle: (input: ControlInput) => Answer | Promise<Answer>;
}

/** The prefix of every control route, relative to `/api/v2`. */
export const CONTROL_PREFIX = '/_sim';

const connections = new WeakMap<ServedSimulation, Map<string, ServedConnection>>();

function clock(host: ControlHost) {
  return { now: formatInstant(host.sim.now()), now_ms: host.sim.now(), mode: host.clockName };
}

function route(
  method: ControlRoute['method'],
  path: string,
  handle: ControlRoute['handle'],
  bodyKeys: readonly string[] = [],
): ControlRoute {
  return { method, pattern: `${CONTROL_PREFIX}${path}`, scope: 'control', bodyKeys, handle };
}

function connectionRoute(method: 'GET' | 'DELETE'): ControlRoute {
  return route(method, '/connections/{id}', ({ host, params }) => {
    const id = params['id'] ?? '';
    const connection = handles(host.sim).get(id);
    if (connection === undefined) return errorAnswer('not_found', `connection ${id} not found`);
    if (method === 'DELETE') connection.close();
    return { status: 200, body: { connection: describe(connection) } };
  });
}

/**
 * A statement on a simulated connection: `query` runs one for `duration` of virtual time, `begin`
 * and `commit` open and end a transaction (the connection is active meanwhile, keeping its compute
 * awake). A refusal (not open: 08003, already running one: 55000) is a 409 naming the SQLSTATE.
 */
function statementRoute(action: 'query' | 'begin' | 'commit'): ControlRoute {
  return route(
    'POST',
    `/connections/{id}/${action}`,
    ({ host, params, body }) => {
      const id = params['id'] ?? '';
      const connection = handles(host.sim).get(id);
      if (connection === undefined) return errorAnswer('not_found', `connection ${id} not found`);
      let outcome;
      if (action === 'query') {
        const duration = tryParseDuration((body['duration'] ?? '') as string);
        if (!duration.ok) return bad(`query needs { "duration": "30s" }: ${duration.error}`);
        outcome = connection.query(duration.value);
      } else outcome = action === 'begin' ? connection.begin() : connection.commit();
      if (!outcome.ok)
        return errorAnswer(
          'conflict',
          `${outcome.error.sqlstate} ${outcome.error.message} (connection ${id} is ${connection.state})`,
        );
      return { status: 200, body: { connection: describe(connection) } };
    },
    action === 'query' ? ['duration'] : [],
  );
}

/** Every control route. */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  route('GET', '/clock', ({ host }) => ({ status: 200, body: clock(host) })),
  route(
    'POST',
    '/clock',
    ({ host, body }) => {
      const mode = parseClockMode(typeof body['mode'] === 'string' ? body['mode'] : '');
      if (!mode.ok)
        return bad(`clock needs { "mode": "manual" | "realtime" | "60x" }: ${mode.error}`);
      return host.setClock(mode.value) ?? { status: 200, body: clock(host) };
    },
    ['mode'],
  ),
  route('POST', '/step', async ({ host }) => {
    // One step: to the next instant any work is due (a timer of the agenda), and all work due then.
    const next = host.sim.pending.nextDue;
    if (!Number.isFinite(next)) return { status: 200, body: clock(host) };
    if (next > LAST_INSTANT)
      return bad(`the next work is due after ${formatInstant(LAST_INSTANT)}, the last instant`);
    return (
      (await host.advanceTo(Math.max(next, host.sim.now()))) ?? { status: 200, body: clock(host) }
    );
  }),
  route(
    'POST',
    '/advance',
    async ({ host, body }) => {
      const sim = host.sim;
      const by = tryParseDuration((body['by'] ?? '') as string);
      if (!by.ok) return bad(`advance needs { "by": "5m" }: ${by.error}`);
      const target = sim.now() + by.value;
      if (target > LAST_INSTANT)
        return bad(
          `advance by ${String(body['by'])} would pass ${formatInstant(LAST_INSTANT)}, the last ` +
            `instant a simulation can reach (now ${formatInstant(sim.now())})`,
        );
      return (await host.advanceTo(target)) ?? { status: 200, body: clock(host) };
    },
    ['by'],
  ),
  // Stops any clock move under way (an advance, a step, a run until idle): 200 with where the clock
  // stopped; the move's own request answers 409 `stopped`, saying the same.
  route('DELETE', '/advance', async ({ host }) => {
    return (await host.stopMove()) ?? { status: 200, body: clock(host) };
  }),
  route(
    'POST',
    '/run_until_idle',
    async ({ host, body }) => {
      const within =
        body['within'] === undefined ? undefined : tryParseDuration(body['within'] as string);
      if (within !== undefined && !within.ok) return bad(`within: ${within.error}`);
      const stopped = await host.runUntilIdle(within?.value ?? parseDuration(DEFAULT_IDLE_WITHIN));
      return stopped ?? { status: 200, body: clock(host) };
    },
    ['within'],
  ),
  route(
    'POST',
    '/connections',
    ({ host, body }) => {
      const sim = host.sim;
      const endpointId = body['endpoint_id'];
      if (typeof endpointId !== 'string' || endpointId === '')
        return bad('connections need { "endpoint_id": "ep-…", "pooled"?: boolean }');
      if (body['pooled'] !== undefined && typeof body['pooled'] !== 'boolean')
        return bad('pooled must be true or false');
      const connection = sim.connect(endpointId, { pooled: body['pooled'] === true });
      handles(sim).set(connection.id, connection);
      return { status: 201, body: { connection: describe(connection) } };
    },
    ['endpoint_id', 'pooled'],
  ),
  connectionRoute('GET'),
  connectionRoute('DELETE'),
  statementRoute('query'),
  statementRoute('begin'),
  statementRoute('commit'),
  route('GET', '/snapshot', ({ host }) => ({
    status: 200,
    body: undefined,
    // Streamed: a log can be hundreds of MB, never one string.
    stream: host.sim.log.jsonLines(0, host.sim.log.length),
    contentType: 'application/x-ndjson',
  })),
  route(
    'POST',
    '/reset',
    ({ host, body }) => {
      const seed = body['seed'];
      const jsonl = body['jsonl'];
      if (seed !== undefined && !Number.isSafeInteger(seed))
        return bad('seed must be a whole number');
      if (jsonl !== undefined && typeof jsonl !== 'string')
        return bad('jsonl must be a JSON Lines log');
      const failed = refused(() =>
        host.reset({
          ...(seed === undefined ? {} : { seed: seed as number }),
          ...(jsonl === undefined ? {} : { jsonl }),
        }),
      );
      return failed ?? { status: 200, body: clock(host) };
    },
    ['seed', 'jsonl'],
  ),
];

/** The answer for a path under `/_sim` that no control route has. */
export function noControlRoute(method: string, path: string): Answer {
  return errorAnswer(
    'not_found',
    `no control route ${method} ${path} (clock, step, advance, run_until_idle, connections, snapshot, reset)`,
  );
}

/**
 * The body of a control request: nothing, or a JSON object with only the keys its route takes
 * (`allowed`; `undefined` when no route matched). Anything else, `null` included, is a 400 that
 * names what is wrong: `null` is a value sent, not an absent body.
 */
export function controlBody(
  allowed: readonly string[] | undefined,
  body: unknown,
): Result<Readonly<Record<string, unknown>>, Answer> {
  if (body === undefined) return ok({});
  const takes = allowed !== undefined && allowed.length > 0 ? allowed : undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return err(
      bad(
        `the body must be a JSON object${takes === undefined ? ' or empty' : ` with ${takes.map((k) => `"${k}"`).join(', ')}, or empty`}, got ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body}`,
      ),
    );
  const unknown = Object.keys(body).find((key) => !(allowed ?? []).includes(key));
  if (unknown !== undefined)
    return err(
      bad(
        `unknown field "${unknown}"${takes === undefined ? ' (this route takes no body)' : ` (expected ${takes.map((k) => `"${k}"`).join(', ')})`}`,
      ),
    );
  return ok(body as Record<string, unknown>);
}

function handles(sim: ServedSimulation): Map<string, ServedConnection> {
  let map = connections.get(sim);
  if (map === undefined) connections.set(sim, (map = new Map<string, ServedConnection>()));
  return map;
}

function describe(connection: ServedConnection) {
  return {
    id: connection.id,
    endpoint_id: connection.endpointId,
    pooled: connection.pooled,
    state: connection.state,
    ...(connection.activity === undefined ? {} : { activity: connection.activity }),
    ...(connection.error === undefined ? {} : { error: connection.error }),
  };
}

/**
 * Runs `act` on input a client gave: the simulation's own validation errors (a log that does not
 * replay, a time it cannot move to) become a 400; anything else is thrown on, an internal error.
 */
function refused(act: () => Answer | undefined): Answer | undefined {
  try {
    return act();
  } catch (error) {
    if (
      error instanceof LogFormatError ||
      error instanceof ClockError ||
      error instanceof RangeError
    )
      return bad(error.message.split('\n')[0] ?? '');
    throw error;
  }
}

function bad(message: string): Answer {
  return errorAnswer('invalid_input', message);
}
