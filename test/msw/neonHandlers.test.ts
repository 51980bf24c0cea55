/**
 * `computesim/msw` with msw's own `setupServer`: `@neondatabase/toolkit`'s README example runs
 * unchanged (create a project, create a table, insert, select, delete the project) against a
 * `Simulation` in process, and the simulation's log holds what it did; `neon()` app code with the
 * URI the API gave gets typed rows and Postgres's errors, `/sql` with another method than POST a
 * 405; time skips, so no test moves the clock.
 */
import { neon, NeonDbError, Pool } from '@neondatabase/serverless';
import { NeonToolkit } from '@neondatabase/toolkit';
import { setupServer } from 'msw/node';
import WebSocket from 'ws';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { neonHandlers, type NeonHandlers } from '../../src/msw/index.js';
import { Simulation } from '../../src/simulation/simulation.js';

// Node 20 has no global WebSocket for msw to intercept (Node 22 has): the ws package stands in,
// as an app's test setup would provide one.
globalThis.WebSocket ??= WebSocket as unknown as typeof globalThis.WebSocket;

describe('the Neon API and SQL over HTTP through msw', () => {
  const sim = new Simulation({ seed: 3 });
  let handlers: NeonHandlers;
  let server: ReturnType<typeof setupServer>;

  beforeAll(() => {
    handlers = neonHandlers(sim);
    server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: 'error' });
  });
  afterAll(async () => {
    server.close();
    await handlers.close();
  });

  it("runs @neondatabase/toolkit's README example unchanged", async () => {
    const toolkit = new NeonToolkit('any-key');
    const project = await toolkit.createProject();
    await toolkit.sql(
      project,
      `CREATE TABLE IF NOT EXISTS users (id UUID PRIMARY KEY, name VARCHAR(255) NOT NULL);`,
    );
    await toolkit.sql(
      project,
      `INSERT INTO users (id, name) VALUES (gen_random_uuid(), 'Sam Smith')`,
    );
    expect(await toolkit.sql(project, `SELECT name FROM users`)).toEqual([{ name: 'Sam Smith' }]);
    await toolkit.deleteProject(project);
    const types = new Set(Array.from({ length: sim.log.length }, (_, i) => sim.log.get(i)?.type));
    for (const type of ['ProjectCreated', 'ConnectionOpened', 'ProjectDeleted'])
      expect(types).toContain(type);
  });

  it("answers neon() with the API's URI: typed rows, and errors with their SQLSTATE", async () => {
    const created = await fetch('https://console.neon.tech/api/v2/projects', {
      method: 'POST',
      headers: { authorization: 'Bearer any-key', 'content-type': 'application/json' },
      body: JSON.stringify({ project: { name: 'app' } }),
    });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { connection_uris: { connection_uri: string }[] };
    const sql = neon(body.connection_uris[0]?.connection_uri as string);
    expect(
      await sql`select ${41}::int + 1 as answer, now() < now() + interval '1 day' as later`,
    ).toEqual([{ answer: 42, later: true }]);
    const failure = await sql`select * from missing`.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NeonDbError);
    expect(failure).toMatchObject({ code: '42P01' });
  });

  it("serves the driver's Pool over a WebSocket: a transaction, unchanged app code", async () => {
    const created = await fetch('https://console.neon.tech/api/v2/projects', {
      method: 'POST',
      headers: { authorization: 'Bearer any-key', 'content-type': 'application/json' },
      body: JSON.stringify({ project: { name: 'pooled' } }),
    });
    const body = (await created.json()) as { connection_uris: { connection_uri: string }[] };
    const pool = new Pool({ connectionString: body.connection_uris[0]?.connection_uri as string });
    try {
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query('create table orders (id int primary key, item text)');
        await client.query("insert into orders values (1, 'over a websocket')");
        await client.query('commit');
      } finally {
        client.release();
      }
      const { rows } = await pool.query<{ item: string; db: string }>(
        'select item, current_database() as db from orders where id = $1',
        [1],
      );
      expect(rows).toEqual([{ item: 'over a websocket', db: 'neondb' }]);
      const failure = await pool.query('select * from missing').catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: '42P01' });
    } finally {
      await pool.end();
    }
    const types = new Set(Array.from({ length: sim.log.length }, (_, i) => sim.log.get(i)?.type));
    expect(types).toContain('ConnectionOpened');
  });

  it('refuses /sql with another method than POST, and answers a CORS preflight', async () => {
    const url = 'https://api.us-east-2.aws.neon.tech/sql';
    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('OPTIONS, POST');
    expect(await get.json()).toMatchObject({ code: 'method_not_allowed' });
    const preflight = await fetch(url, { method: 'OPTIONS' });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('a Pool as the first thing the handlers serve', () => {
  it('keeps what the driver sends while the front is still being made', async () => {
    // The driver sends its startup and password the moment the socket opens, before the handlers'
    // Postgres front exists: nothing of it may be lost.
    const sim = new Simulation({ seed: 5 });
    const handlers = neonHandlers(sim);
    const server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const created = sim.request('POST', '/projects', { project: { name: 'first' } });
      const pool = new Pool({ connectionString: created.body.connection_uris[0].connection_uri });
      try {
        const { rows } = await pool.query<{ one: number }>('select 1 as one');
        expect(rows).toEqual([{ one: 1 }]);
      } finally {
        await pool.end();
      }
    } finally {
      server.close();
      await handlers.close();
    }
  }, 60_000);
});

describe('handlers made again and again (a test per run)', () => {
  it('leaves a Pool to the live handlers: closed ones answer none of its sockets', async () => {
    const stale = neonHandlers(new Simulation({ seed: 9 }));
    await stale.close();
    const sim = new Simulation({ seed: 9 });
    const live = neonHandlers(sim);
    const server = setupServer(...stale, ...live);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const created = sim.request('POST', '/projects', { project: { name: 'live' } });
      const pool = new Pool({ connectionString: created.body.connection_uris[0].connection_uri });
      try {
        for (let i = 0; i < 3; i++)
          expect((await pool.query<{ n: number }>('select $1::int as n', [i])).rows).toEqual([
            { n: i },
          ]);
      } finally {
        await pool.end();
      }
    } finally {
      server.close();
      await live.close();
    }
  }, 60_000);
});

describe('after an msw server that listened with no global WebSocket', () => {
  it('hands each socket to one front: a Pool reads its rows', async () => {
    // msw's setupServer servers share one WebSocket interceptor. The first to listen where the
    // runtime has no WebSocket leaves its `connection` listener on it when it closes; the next
    // server's makes two, and each socket reaches the links twice. Its own process: msw's state is
    // process-wide, and only a first server leaves this behind.
    const script = fileURLToPath(
      new URL('../fixtures/mswFirstServerWithoutWebSocket.ts', import.meta.url),
    );
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script]);
    expect(stdout.trim().split('\n').at(-1)).toBe('[{"n":1}]');
  }, 60_000);
});

describe('time through msw', () => {
  it('moves the clock only for what a request waits for: reading the API never suspends a compute', async () => {
    const sim = new Simulation({ seed: 4 });
    const handlers = neonHandlers(sim);
    const server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const api = (path: string, init: RequestInit = {}) =>
        fetch(`https://console.neon.tech/api/v2${path}`, {
          ...init,
          headers: { authorization: 'Bearer any-key', 'content-type': 'application/json' },
        });
      const created = (await (
        await api('/projects', { method: 'POST', body: JSON.stringify({ project: {} }) })
      ).json()) as {
        project: { id: string };
        operations: { id: string }[];
        endpoints: { id: string }[];
        connection_uris: { connection_uri: string }[];
      };
      // A poll of the project's operation skips to its end: the first poll sees it finished.
      const [first] = created.operations;
      const polled = (await (
        await api(`/projects/${created.project.id}/operations/${first?.id}`)
      ).json()) as { operation: { status: string } };
      expect(polled.operation.status).toBe('finished');
      // A query wakes nothing (the compute is up); reading the API many times after it lets no
      // idle time pass: the compute stays up and the next query is no cold start.
      const sql = neon(created.connection_uris[0]?.connection_uri as string);
      await sql`select 1`;
      const before = sim.now();
      for (let i = 0; i < 5; i += 1) {
        await api(`/projects/${created.project.id}`);
        await api(`/projects/${created.project.id}/endpoints`);
      }
      expect(sim.now()).toBe(before);
      const endpoint = sim.state.projects[created.project.id]?.endpoints[created.endpoints[0]!.id];
      expect(endpoint?.currentState).toBe('active');
      const starts = () =>
        Array.from({ length: sim.log.length }, (_, i) => sim.log.get(i)).filter(
          (event) => event?.type === 'OperationCreated' && event.action === 'start_compute',
        ).length;
      const startsBefore = starts();
      await sql`select 2`;
      expect(starts()).toBe(startsBefore);
    } finally {
      server.close();
      await handlers.close();
    }
  });
});
