/**
 * The control routes of a served simulation, under `/api/v2/_sim/`: read the clock, advance it, run
 * until idle, open and close simulated client connections, take a snapshot of the log, and reset.
 * They act on the same simulation as the API routes, through its public methods only.
 */
import type { ApiResponse } from '../api/apiResponse.js';
import { tryParseDuration } from '../core/duration.js';
import { formatInstant } from '../core/instant.js';
import type { Connection } from '../engine/connection.js';
import { ClockError, LogFormatError } from '../engine/errors.js';
import type { Simulation } from '../engine/simulation.js';

/** What the control routes work on; `reset` swaps the simulation. */
export interface ControlHost {
  readonly sim: Simulation;
  readonly clockName: string;
  /** Moves virtual time forward by `ms` (the clock driver keeps the offset in paced modes). */
  advance(ms: number): void;
  /** Replaces the simulation: a fresh one with `seed`, or one rebuilt from a JSON Lines log. */
  reset(from: { readonly seed?: number; readonly jsonl?: string }): void;
}

/** A control response: JSON, or the log as JSON Lines. */
export interface ControlResponse extends ApiResponse {
  readonly contentType?: string;
  /** Extra response headers (`retry-after`). */
  readonly headers?: Readonly<Record<string, string>>;
}

const connections = new WeakMap<Simulation, Map<string, Connection>>();

/** Handles one control request (`path` after `/_sim`), or `undefined` when no route matches. */
export function handleControl(
  host: ControlHost,
  method: string,
  path: string,
  body: unknown,
): ControlResponse {
  const sim = host.sim;
  const input = (body ?? {}) as Record<string, unknown>;
  const clock = () => ({ now: formatInstant(sim.now()), now_ms: sim.now(), mode: host.clockName });
  const route = `${method} ${path.replace(/^\/connections\/[^/]+$/, '/connections/{id}')}`;
  switch (route) {
    case 'GET /clock':
      return { status: 200, body: clock() };
    case 'POST /advance': {
      const by = tryParseDuration((input['by'] ?? '') as string);
      if (!by.ok) return bad(`advance needs { "by": "5m" }: ${by.error}`);
      const advanced = refused(() => host.advance(by.value));
      if (advanced !== undefined) return advanced;
      return { status: 200, body: clock() };
    }
    case 'POST /run_until_idle': {
      const within =
        input['within'] === undefined ? undefined : tryParseDuration(input['within'] as string);
      if (within !== undefined && !within.ok) return bad(`within: ${within.error}`);
      sim.runUntilIdle(within === undefined ? {} : { within: within.value });
      return { status: 200, body: clock() };
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
      return { status: 200, body: sim.toJSONL(), contentType: 'application/x-ndjson' };
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
