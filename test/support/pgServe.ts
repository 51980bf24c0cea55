/**
 * `serve` with its Postgres front, in process, for the tests of real Postgres clients: start it on
 * free loopback ports with branch data in a temporary folder, call the API, move the clock, stop.
 */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SimServer } from '../../src/http/simServer.js';
import { parseClockMode } from '../../src/service/clockMode.js';
import { Simulation } from '../../src/simulation/simulation.js';
import type { PostgresAddress } from '../../src/domain/connectionUri.js';
import type { PostgresEngine, PostgresFrontOptions } from '../../src/pg/postgresFront.js';
import type pg from 'pg';
import { callJson } from './callJson.js';
import type { JsonBody } from './serveProcess.js';

const KEY = 'pg-front-key';

/**
 * A `pg` client's settings for connection URI `uri`, taken apart (a URI's own `options` would
 * override any given beside it), with `extra` (`options`, `application_name`, …) added.
 */
export function clientConfig(uri: string, extra: pg.ClientConfig = {}): pg.ClientConfig {
  const url = new URL(uri);
  return {
    host: url.hostname,
    port: Number(url.port),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: url.pathname.slice(1),
    ...extra,
  };
}

/** A served simulation with a Postgres front. */
export interface PgServe {
  readonly server: SimServer;
  /** The API's base URL (`http://127.0.0.1:PORT/api/v2`). */
  readonly base: string;
  readonly postgres: PostgresAddress;
  /** The folder of the branch databases (`<project>/<branch>/<database>`). */
  readonly root: string;
  /** One API request with the key; the parsed body. */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: JsonBody }>;
  /** Moves virtual time on by `by` (`'10s'`) through the control route. */
  advance(by: string): Promise<void>;
  /**
   * Connects `client` on a manual clock as a user would: moving time on a second at a time while
   * its compute starts (and only then: the real open of its database takes wall time, not
   * simulated time, so moving the clock meanwhile would age every other idle client).
   */
  connect(client: pg.Client): Promise<void>;
  /**
   * A new project (`settings` added to its body: `default_endpoint_settings`, …): its id, its
   * compute, and the connection URI the API gives.
   */
  project(
    name?: string,
    settings?: Record<string, unknown>,
  ): Promise<{ id: string; endpointId: string; branchId: string; uri: string }>;
  /** Resizes the project's compute to a fixed `cu` (a restart that drops its clients). */
  resize(project: { id: string; endpointId: string }, cu: number): Promise<number>;
  stop(): Promise<void>;
}

/** The error a client is ended with (a 57P01 as its compute restarts, say). */
export function droppedWith(client: pg.Client): Promise<Error & { code?: string }> {
  return new Promise((resolve) => client.on('error', resolve));
}

/** Starts a server (clock `manual` unless told) with the front on a free port. */
export async function startPgServe(
  options: {
    readonly clock?: string;
    readonly maxOpen?: number;
    readonly root?: string;
    /** Where the template database is made (default: the machine's, made once). */
    readonly templateDir?: string;
    /** Told of clients that broke the protocol. */
    readonly onLog?: (line: string) => void;
    /** How many clients the front takes (default: the front's own). */
    readonly limits?: PostgresFrontOptions['limits'];
    /** What runs the databases (default PGlite). */
    readonly engine?: PostgresEngine;
  } = {},
): Promise<PgServe> {
  const clock = parseClockMode(options.clock ?? 'manual');
  if (!clock.ok) throw new Error(clock.error);
  const root = options.root ?? mkdtempSync(join(tmpdir(), 'computesim-pg-test-'));
  const server = new SimServer(new Simulation({ seed: 7 }), {
    keys: [{ key: KEY, kind: 'personal' }],
    clock: clock.value,
  });
  const base = await server.listen(0);
  const postgres = await server.listenPostgres(0, '127.0.0.1', {
    root,
    ...(options.maxOpen === undefined ? {} : { maxOpen: options.maxOpen }),
    ...(options.templateDir === undefined ? {} : { templateDir: options.templateDir }),
    ...(options.onLog === undefined ? {} : { onLog: options.onLog }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.engine === undefined ? {} : { engine: options.engine }),
  });
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await callJson(fetch, base, KEY, method, path, body);
    return { status: answer.status, body: answer.body as JsonBody };
  };
  return {
    server,
    base,
    postgres,
    root,
    call,
    advance: async (by) => {
      const moved = await call('POST', '/_sim/advance', { by });
      if (moved.status !== 200) throw new Error(`advance ${by}: ${JSON.stringify(moved.body)}`);
    },
    connect: async (client) => {
      const named = client as unknown as {
        connectionParameters: { options?: string };
        password?: string;
      };
      const endpointId = (
        /endpoint=(\S+)/.exec(named.connectionParameters.options ?? '')?.[1] ??
        /^endpoint=([^;$]+)/.exec(named.password ?? '')?.[1]
      )?.replace(/-pooler$/, '');
      let connected = false;
      const connecting = client.connect().then(() => (connected = true));
      connecting.catch(() => undefined);
      for (let i = 0; i < 400 && !connected; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (connected) break;
        const state = server.sim.state;
        const projectId = endpointId === undefined ? undefined : state.endpointOwners[endpointId];
        const endpoint =
          projectId === undefined || endpointId === undefined
            ? undefined
            : state.projects[projectId]?.endpoints[endpointId];
        if (endpoint?.currentState !== 'active' || endpoint.pendingState !== undefined)
          await call('POST', '/_sim/advance', { by: '1s' });
      }
      await connecting;
    },
    project: async (name = 'app', settings = {}) => {
      const created = await call('POST', '/projects', { project: { name, ...settings } });
      if (created.status !== 201) throw new Error(JSON.stringify(created.body));
      return {
        id: created.body['project'].id as string,
        endpointId: created.body['endpoints'][0].id as string,
        branchId: created.body['branch'].id as string,
        uri: created.body['connection_uris'][0].connection_uri as string,
      };
    },
    resize: async (project, cu) =>
      (
        await call('PATCH', `/projects/${project.id}/endpoints/${project.endpointId}`, {
          endpoint: { autoscaling_limit_min_cu: cu, autoscaling_limit_max_cu: cu },
        })
      ).status,
    stop: async () => {
      await server.close();
      if (options.root === undefined) await rm(root, { recursive: true, force: true });
    },
  };
}
