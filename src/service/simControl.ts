/**
 * The control routes of a served simulation, under `/api/v2/_sim/`, as a route table: read the
 * clock, set its speed, step to the next due work, advance it, run until idle, open and close
 * simulated client connections, take a snapshot of the log, and reset. They act on the same
 * simulation as the API routes, through its public methods only. Each route declares its body with
 * zod (`controlBody.ts`), parsed once before its handler runs: an unknown field is a 400 and nothing
 * changes. Every control route needs a key that is not project-scoped (`scope: 'control'`).
 */
import { z } from 'zod';
import { formatDuration, parseDuration } from '../core/duration.js';
import { formatInstant, LAST_INSTANT } from '../core/instant.js';
import { parsedWith, satisfying } from '../core/schema.js';
import { DEFAULT_IDLE_WITHIN } from '../engine/engineOptions.js';
import { ClockError, LogFormatError } from '../engine/errors.js';
import { parseClockMode, type ClockMode } from './clockMode.js';
import { controlBody, durationField, NO_BODY } from './controlBody.js';
import type { ServedConnection, ServedSimulation, StatementOutcome } from './servedSimulation.js';
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

/** What a control route's handler gets: the host, the path parameters and the parsed body. */
interface ControlInput<B = unknown> {
  readonly host: ControlHost;
  readonly params: Readonly<Record<string, string>>;
  readonly body: B;
}

/** One control route; `pattern` is relative to `/api/v2`. */
export interface ControlRoute<B = unknown> {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly pattern: string;
  /** Who may call it: a key that is not limited to one project. */
  readonly scope: 'control';
  /** Its body, declared once (`NO_BODY` when it takes none); parsed before `handle` runs. */
  readonly body: z.ZodType<B>;
  // A method, not a function property: a route typed by its body then fits the table of routes.
  handle(input: ControlInput<B>): Answer | Promise<Answer>;
}

/** The prefix of every control route, relative to `/api/v2`. */
export const CONTROL_PREFIX = '/_sim';

const connections = new WeakMap<ServedSimulation, Map<string, ServedConnection>>();

function clock(host: ControlHost) {
  return { now: formatInstant(host.sim.now()), now_ms: host.sim.now(), mode: host.clockName };
}

function route<B>(
  method: ControlRoute['method'],
  path: string,
  body: z.ZodType<B>,
  handle: (input: ControlInput<B>) => Answer | Promise<Answer>,
): ControlRoute<B> {
  return { method, pattern: `${CONTROL_PREFIX}${path}`, scope: 'control', body, handle };
}

function connectionRoute(method: 'GET' | 'DELETE'): ControlRoute {
  return route(method, '/connections/{id}', NO_BODY, ({ host, params }) => {
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
function statementRoute<B>(
  action: 'query' | 'begin' | 'commit',
  body: z.ZodType<B>,
  run: (connection: ServedConnection, body: B) => StatementOutcome,
): ControlRoute<B> {
  return route('POST', `/connections/{id}/${action}`, body, ({ host, params, body }) => {
    const id = params['id'] ?? '';
    const connection = handles(host.sim).get(id);
    if (connection === undefined) return errorAnswer('not_found', `connection ${id} not found`);
    const outcome = run(connection, body);
    if (!outcome.ok)
      return errorAnswer(
        'conflict',
        `${outcome.error.sqlstate} ${outcome.error.message} (connection ${id} is ${connection.state})`,
      );
    return { status: 200, body: { connection: describe(connection) } };
  });
}

/** Every control route. */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  route('GET', '/clock', NO_BODY, ({ host }) => ({ status: 200, body: clock(host) })),
  route(
    'POST',
    '/clock',
    controlBody({ mode: parsedWith(z.string(), parseClockMode) }),
    ({ host, body }) => host.setClock(body.mode) ?? { status: 200, body: clock(host) },
  ),
  route('POST', '/step', NO_BODY, async ({ host }) => {
    // One step: to the next instant any work is due (a timer of the agenda), and all work due then.
    const next = host.sim.pending.nextDue;
    if (!Number.isFinite(next)) return { status: 200, body: clock(host) };
    if (next > LAST_INSTANT)
      return bad(`the next work is due after ${formatInstant(LAST_INSTANT)}, the last instant`);
    return (
      (await host.advanceTo(Math.max(next, host.sim.now()))) ?? { status: 200, body: clock(host) }
    );
  }),
  route('POST', '/advance', controlBody({ by: durationField }), async ({ host, body }) => {
    const sim = host.sim;
    const target = sim.now() + body.by;
    if (target > LAST_INSTANT)
      return bad(
        `advance by ${formatDuration(body.by)} would pass ${formatInstant(LAST_INSTANT)}, the last ` +
          `instant a simulation can reach (now ${formatInstant(sim.now())})`,
      );
    return (await host.advanceTo(target)) ?? { status: 200, body: clock(host) };
  }),
  // Stops any clock move under way (an advance, a step, a run until idle): 200 with where the clock
  // stopped; the move's own request answers 409 `stopped`, saying the same.
  route('DELETE', '/advance', NO_BODY, async ({ host }) => {
    return (await host.stopMove()) ?? { status: 200, body: clock(host) };
  }),
  route(
    'POST',
    '/run_until_idle',
    controlBody({ within: durationField.optional() }),
    async ({ host, body }) => {
      const stopped = await host.runUntilIdle(body.within ?? parseDuration(DEFAULT_IDLE_WITHIN));
      return stopped ?? { status: 200, body: clock(host) };
    },
  ),
  route(
    'POST',
    '/connections',
    controlBody({
      endpoint_id: z.string().min(1, { error: 'must be a compute id such as ep-…' }),
      pooled: z.boolean().optional(),
    }),
    ({ host, body }) => {
      const sim = host.sim;
      const connection = sim.connect(body.endpoint_id, { pooled: body.pooled === true });
      handles(sim).set(connection.id, connection);
      return { status: 201, body: { connection: describe(connection) } };
    },
  ),
  connectionRoute('GET'),
  connectionRoute('DELETE'),
  statementRoute('query', controlBody({ duration: durationField }), (connection, body) =>
    connection.query(body.duration),
  ),
  statementRoute('begin', NO_BODY, (connection) => connection.begin()),
  statementRoute('commit', NO_BODY, (connection) => connection.commit()),
  route('GET', '/snapshot', NO_BODY, ({ host }) => {
    const log = host.sim.log;
    // Refused before the 200, which a stream failing on its first line would come too late to undo.
    if (!log.keepsEvents)
      return errorAnswer(
        'conflict',
        'the snapshot is the event log, and this simulation keeps none in memory ' +
          "(log: 'none', or streamed to a file: read that file instead)",
      );
    // Streamed: a log can be hundreds of MB, never one string.
    return {
      status: 200,
      body: undefined,
      stream: log.jsonLines(0, log.length),
      contentType: 'application/x-ndjson',
    };
  }),
  route(
    'POST',
    '/reset',
    controlBody({
      seed: satisfying<number>(Number.isSafeInteger, 'must be a whole number').optional(),
      jsonl: z.string({ error: 'must be a JSON Lines log' }).optional(),
    }),
    ({ host, body }) => {
      const { seed, jsonl } = body;
      const failed = refused(() =>
        host.reset({
          ...(seed === undefined ? {} : { seed }),
          ...(jsonl === undefined ? {} : { jsonl }),
        }),
      );
      return failed ?? { status: 200, body: clock(host) };
    },
  ),
];

/** The answer for a path under `/_sim` that no control route has. */
export function noControlRoute(method: string, path: string): Answer {
  return errorAnswer(
    'not_found',
    `no control route ${method} ${path} (clock, step, advance, run_until_idle, connections, snapshot, reset)`,
  );
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
