/**
 * The serverless driver (`@neondatabase/serverless`) against `serve`: `neon()`'s SQL over HTTP at
 * `POST /sql` (a query with parameters, a batch run as one transaction, all or nothing, an error's
 * SQLSTATE on the driver's own error, a wake-up from idle recorded as `start_compute` and counted
 * as a session, a wrong password refused, a body that is not a statement) and `Pool` over a
 * WebSocket at `/v2` (a transaction, a refusal).
 */
import { neon, neonConfig, NeonDbError, Pool } from '@neondatabase/serverless';
import ws from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricsOf } from '../../src/projection/metrics.js';
import { startPgServe, type PgServe } from '../support/pgServe.js';

type Project = Awaited<ReturnType<PgServe['project']>>;

describe('SQL over HTTP with the serverless driver', () => {
  let serve: PgServe;
  let project: Project;
  let neonUri: string;

  beforeAll(async () => {
    serve = await startPgServe();
    project = await serve.project('serverless');
    await serve.advance('10s');
    const endpoint = await serve.call(
      'GET',
      `/projects/${project.id}/endpoints/${project.endpointId}`,
    );
    // The URI an app has in DATABASE_URL: the compute's host names the compute.
    const url = new URL(project.uri);
    neonUri = `postgresql://${url.username}:${url.password}@${endpoint.body['endpoint'].host as string}/neondb?sslmode=require`;
    const origin = new URL(serve.base).origin;
    neonConfig.fetchEndpoint = () => `${origin}/sql`;
    // The driver's Pool over WebSocket, pointed at serve (the compute still named by the host).
    neonConfig.webSocketConstructor = ws;
    neonConfig.useSecureWebSocket = false;
    neonConfig.wsProxy = (host, port) => `${new URL(origin).host}/v2?address=${host}:${port}`;
  });
  afterAll(async () => {
    // neonConfig is the driver's global: the next test file (modules are shared) gets its defaults.
    neonConfig.fetchEndpoint = undefined as never;
    neonConfig.webSocketConstructor = undefined;
    neonConfig.useSecureWebSocket = true;
    neonConfig.wsProxy = undefined as never;
    await serve.stop();
  });

  it('runs a query with parameters, the rows typed by the driver', async () => {
    const sql = neon(neonUri);
    await sql`create table if not exists orders (id int primary key, item text, placed timestamptz)`;
    await sql`insert into orders values (${1}, ${'tea'}, ${'2026-01-05T09:00:00Z'})`;
    const rows = await sql`select id, item, placed from orders where id = ${1}`;
    expect(rows).toEqual([{ id: 1, item: 'tea', placed: new Date('2026-01-05T09:00:00Z') }]);
    const full = await sql.query('select count(*)::int as n from orders', [], {
      fullResults: true,
    });
    expect(full).toMatchObject({ command: 'SELECT', rowCount: 1, rows: [{ n: 1 }] });
  });

  it('runs a batch as one transaction: all of it, or nothing', async () => {
    const sql = neon(neonUri);
    await sql.transaction([
      sql`insert into orders values (2, 'cake', now())`,
      sql`insert into orders values (3, 'jam', now())`,
    ]);
    await expect(
      sql.transaction([
        sql`insert into orders values (4, 'bun', now())`,
        sql`insert into orders values (2, 'again', now())`, // a duplicate key
      ]),
    ).rejects.toMatchObject({ code: '23505' });
    const rows = await sql`select id from orders order by id`;
    expect(rows.map((r) => r['id'])).toEqual([1, 2, 3]); // 4 was rolled back with the failure
  });

  it('applies the batch headers: a read-only transaction refuses writes, and the URI may name the compute in options', async () => {
    const sql = neon(neonUri);
    await expect(
      sql.transaction([sql`insert into orders values (7, 'no', now())`], {
        readOnly: true,
        isolationLevel: 'Serializable',
      }),
    ).rejects.toMatchObject({ code: '25006' });
    const byOptions = neon(project.uri.replace('sslmode=disable', 'sslmode=require'));
    expect(await byOptions`select count(*)::int as n from orders where id = 7`).toEqual([{ n: 0 }]);
  });

  it("throws the driver's own error with the SQLSTATE in code", async () => {
    const sql = neon(neonUri);
    const failure = await sql`select * from no_such_table`.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NeonDbError);
    expect(failure).toMatchObject({
      code: '42P01',
      message: 'relation "no_such_table" does not exist',
    });
  });

  it('wakes an idle compute (a start_compute, a session in the figures)', async () => {
    await serve.advance('6m');
    const state = await serve.call(
      'GET',
      `/projects/${project.id}/endpoints/${project.endpointId}`,
    );
    expect(state.body['endpoint'].current_state).toBe('idle');
    const before = metricsOf(serve.server.sim.log).fleet;
    const sql = neon(neonUri);
    let done = false;
    const query = sql`select 1 as one`.then((rows) => {
      done = true;
      return rows;
    });
    for (let i = 0; i < 200 && !done; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (!done) await serve.advance('1s'); // the request waits for the start, as a client does
    }
    expect(await query).toEqual([{ one: 1 }]);
    const operations = await serve.call('GET', `/projects/${project.id}/operations`);
    expect(operations.body['operations'][0].action).toBe('start_compute');
    const after = metricsOf(serve.server.sim.log).fleet;
    expect(after.sessions - before.sessions).toBe(1);
    expect(after.coldStarts - before.coldStarts).toBe(1);
  });

  it('refuses a wrong password with 28P01, and a body that is not a statement', async () => {
    const sql = neon(neonUri.replace(/:[^:@/]+@/, ':not-it@'));
    await expect(sql`select 1`).rejects.toMatchObject({ code: '28P01' });
    const origin = new URL(serve.base).origin;
    const bad = await fetch(`${origin}/sql`, {
      method: 'POST',
      headers: { 'Neon-Connection-String': neonUri },
      body: '{"queries": "no"}',
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: '08P01' });
  });

  it('runs a Pool transaction over a WebSocket, a client of the same front', async () => {
    const pool = new Pool({ connectionString: neonUri });
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query("insert into orders values (10, 'over ws', now())");
      const inside = await client.query<{ n: number }>('select count(*)::int as n from orders');
      await client.query('commit');
      expect(inside.rows).toEqual([{ n: 4 }]);
    } finally {
      client.release();
    }
    const { rows } = await pool.query<{ item: string }>(
      'select item from orders where id = $1',
      [10],
    );
    expect(rows).toEqual([{ item: 'over ws' }]);
    await pool.end();
    const wrong = new Pool({ connectionString: neonUri.replace(/:[^:@/]+@/, ':not-it@') });
    await expect(wrong.query('select 1')).rejects.toMatchObject({ code: '28P01' });
    await wrong.end();
  });
});

describe('the serverless driver at 600x', () => {
  let serve: PgServe;
  let neonUri: string;

  beforeAll(async () => {
    serve = await startPgServe({ clock: '600x' });
    const project = await serve.project('fast');
    const endpoint = await serve.call(
      'GET',
      `/projects/${project.id}/endpoints/${project.endpointId}`,
    );
    const url = new URL(project.uri);
    neonUri = `postgresql://${url.username}:${url.password}@${endpoint.body['endpoint'].host as string}/neondb`;
    const origin = new URL(serve.base).origin;
    neonConfig.fetchEndpoint = () => `${origin}/sql`;
    neonConfig.webSocketConstructor = ws;
    neonConfig.useSecureWebSocket = false;
    neonConfig.wsProxy = (host, port) => `${new URL(origin).host}/v2?address=${host}:${port}`;
    await serve.advance('10m'); // started, then scaled to zero: the first query is a cold start
  });
  afterAll(async () => {
    neonConfig.fetchEndpoint = undefined as never;
    neonConfig.webSocketConstructor = undefined;
    neonConfig.useSecureWebSocket = true;
    neonConfig.wsProxy = undefined as never;
    await serve.stop();
  });

  it('wakes the compute and keeps it up through a statement that takes wall time, over HTTP', async () => {
    const sql = neon(neonUri);
    // 2 s of wall time are 20 virtual minutes at 600x: four suspend timeouts.
    expect(await sql`select pg_sleep(2), 1 as one`).toEqual([{ pg_sleep: '', one: 1 }]);
    const drops = metricsOf(serve.server.sim.log).fleet.dropped;
    expect(drops).toEqual({});
  });

  it('runs a Pool transaction over the WebSocket', async () => {
    const pool = new Pool({ connectionString: neonUri });
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('create table fast (x int)');
      await client.query('select pg_sleep(1)'); // 10 virtual minutes inside the transaction
      await client.query('insert into fast values (1)');
      await client.query('commit');
    } finally {
      client.release();
    }
    expect((await pool.query('select count(*)::int as n from fast')).rows).toEqual([{ n: 1 }]);
    await pool.end();
  });
});
