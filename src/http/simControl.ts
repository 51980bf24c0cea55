/**
 * The control routes of a served simulation, under `/api/v2/_sim/`: read the clock, advance it, run
 * until idle, open and close simulated client connections, take a snapshot of the log, and reset.
 * They act on the same simulation as the API routes, through its public methods only. Bodies are
 * checked like the public routes' (an unknown field is a 400 and nothing changes).
 */
import type { ApiResponse } from '../api/apiResponse.js';
import { parseDuration, tryParseDuration } from '../core/duration.js';
import { formatInstant, LAST_INSTANT } from '../core/instant.js';
import { err, ok, type Result } from '../core/result.js';
import { DEFAULT_IDLE_WITHIN } from '../engine/engine.js';
import type { Connection } from '../simulation/connection.js';
import { ClockError, LogFormatError } from '../engine/errors.js';
import type { Simulation } from '../simulation/simulation.js';

/** What the control routes work on; `reset` swaps the simulation. */
export interface ControlHost {
  readonly sim: Simulation;
  readonly clockName: string;
  /**
   * Moves virtual time to `target` (checked: not before now, not past the last instant), in slices
   * while other requests are served; resolves to an error response if it stopped short.
   */
  advanceTo(target: number): Promise<ControlResponse | undefined>;
  /** Runs until idle or until `within` ms of virtual time have passed, in slices like `advanceTo`. */
  runUntilIdle(within: number): Promise<ControlResponse | undefined>;
  /** Replaces the simulation: a fresh one with `seed`, or one rebuilt from a JSON Lines log. */
  reset(from: { readonly seed?: number; readonly jsonl?: string }): void;
}

/** A control response: JSON, or the log as JSON Lines. */
export interface ControlResponse extends ApiResponse {
  readonly contentType?: string;
  /** Extra response headers (`retry-after`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** A body sent as it is produced, chunk by chunk (a whole log), instead of `body`. */
  readonly stream?: Iterable<string>;
}

const connections = new WeakMap<Simulation, Map<string, Connection>>();

/** The keys each control route's body may have. */
const BODY_KEYS: Readonly<Record<string, readonly string[]>> = {
  'POST /advance': ['by'],
  'POST /run_until_idle': ['within'],
  'POST /connections': ['endpoint_id', 'pooled'],
  'POST /reset': ['seed', 'jsonl'],
};

/** Handles one control request (`path` after `/_sim`). */
export async function handleControl(
  host: ControlHost,
  method: string,
  path: string,
  body: unknown,
): Promise<ControlResponse> {
  const route = `${method} ${path.replace(/^\/connections\/[^/]+$/, '/connections/{id}')}`;
  const input = bodyOf(route, body);
  if (!input.ok) return input.error;
  return answer(host, route, method, path, input.value);
}

async function answer(
  host: ControlHost,
  route: string,
  method: string,
  path: string,
  input: Readonly<Record<string, unknown>>,
): Promise<ControlResponse> {
  const sim = host.sim;
  const clock = () => ({
    now: formatInstant(host.sim.now()),
    now_ms: host.sim.now(),
    mode: host.clockName,
  });
  switch (route) {
    case 'GET /clock':
      return { status: 200, body: clock() };
    case 'POST /advance': {
      const by = tryParseDuration((input['by'] ?? '') as string);
      if (!by.ok) return bad(`advance needs { "by": "5m" }: ${by.error}`);
      const target = sim.now() + by.value;
      if (target > LAST_INSTANT)
        return bad(
          `advance by ${String(input['by'])} would pass ${formatInstant(LAST_INSTANT)}, the last ` +
            `instant a simulation can reach (now ${formatInstant(sim.now())})`,
        );
      return (await host.advanceTo(target)) ?? { status: 200, body: clock() };
    }
    case 'POST /run_until_idle': {
      const within =
        input['within'] === undefined ? undefined : tryParseDuration(input['within'] as string);
      if (within !== undefined && !within.ok) return bad(`within: ${within.error}`);
      const stopped = await host.runUntilIdle(within?.value ?? parseDuration(DEFAULT_IDLE_WITHIN));
      return stopped ?? { status: 200, body: clock() };
    }
    case 'POST /connections': {
      const endpointId = input['endpoint_id'];
      if (typeof endpointId !== 'string' || endpointId === '')
        return bad('connections need { "endpoint_id": "ep-…", "pooled"?: boolean }');
      if (input['pooled'] !== undefined && typeof input['pooled'] !== 'boolean')
        return bad('pooled must be true or false');
      const connection = sim.connect(endpointId, { pooled: input['pooled'] === true });
      handles(sim).set(connection.id, connection);
      return { status: 201, body: { connection: describe(connection) } };
    }
    case 'GET /connections/{id}':
    case 'DELETE /connections/{id}': {
      const id = decodeURIComponent(path.slice('/connections/'.length));
      const connection = handles(sim).get(id);
      if (connection === undefined)
        return { status: 404, body: { code: 'not_found', message: `connection ${id} not found` } };
      if (method === 'DELETE') connection.close();
      return { status: 200, body: { connection: describe(connection) } };
    }
    case 'GET /snapshot':
      return {
        status: 200,
        body: undefined,
        stream: sim.log.jsonLines(0, sim.log.length),
        contentType: 'application/x-ndjson',
      };
    case 'POST /reset': {
      const seed = input['seed'];
      const jsonl = input['jsonl'];
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
      if (failed !== undefined) return failed;
      return { status: 200, body: clock() };
    }
    default:
      return {
        status: 404,
        body: {
          code: 'not_found',
          message: `no control route ${method} /_sim${path} (clock, advance, run_until_idle, connections, snapshot, reset)`,
        },
      };
  }
}

/**
 * The body of a control request: nothing, or a JSON object with only the keys its route takes
 * (routes without a body take none). Anything else is a 400 that names what is wrong.
 */
function bodyOf(
  route: string,
  body: unknown,
): Result<Readonly<Record<string, unknown>>, ControlResponse> {
  if (body === undefined || body === null) return ok({});
  const allowed = BODY_KEYS[route];
  if (typeof body !== 'object' || Array.isArray(body))
    return err(
      bad(
        `the body must be a JSON object${allowed === undefined ? ' or empty' : ` with ${allowed.map((k) => `"${k}"`).join(', ')}`}, got ${Array.isArray(body) ? 'an array' : typeof body}`,
      ),
    );
  const unknown = Object.keys(body).find((key) => !(allowed ?? []).includes(key));
  if (unknown !== undefined)
    return err(
      bad(
        `unknown field "${unknown}"${allowed === undefined || allowed.length === 0 ? ' (this route takes no body)' : ` (expected ${allowed.map((k) => `"${k}"`).join(', ')})`}`,
      ),
    );
  return ok(body as Record<string, unknown>);
}

function handles(sim: Simulation): Map<string, Connection> {
  let map = connections.get(sim);
  if (map === undefined) connections.set(sim, (map = new Map()));
  return map;
}

function describe(connection: Connection) {
  return {
    id: connection.id,
    endpoint_id: connection.endpointId,
    pooled: connection.pooled,
    state: connection.state,
    ...(connection.error === undefined ? {} : { error: connection.error }),
  };
}

/**
 * Runs `act` on input a client gave: the simulation's own validation errors (a log that does not
 * replay, a time it cannot move to) become a 400; anything else is thrown on, an internal error.
 */
function refused(act: () => void): ControlResponse | undefined {
  try {
    act();
    return undefined;
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

function bad(message: string): ControlResponse {
  return { status: 400, body: { code: 'invalid_input', message } };
}
