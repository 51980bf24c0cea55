/**
 * The serverless driver (`@neondatabase/serverless`) against `serve`: `neon()`'s SQL over HTTP at
 * `POST /sql` (a query with parameters, a batch run as one transaction, all or nothing, an error's
 * SQLSTATE on the driver's own error, a wake-up from idle recorded as `start_compute` and counted
 * as a session, a wrong password refused, a body that is not a statement) and `Pool` over a
 * WebSocket at `/v2` (a transaction, a refusal); and `/sql` at the real proxy's limits (a result
 * past 10 MiB refused with its 507 while other clients go on, the parameter count, names in the
 * connection string that are not UTF-8, a method other than POST).
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

  it('refuses a wrong user, password or project as the real proxy does, and a body that is not a statement', async () => {
    // The serverless driver's own tests make these three mistakes and expect the proxy's answer.
    for (const wrongUri of [
      neonUri.replace('//', '//x'),
      neonUri.replace('@', 'x@'),
      neonUri.replace('@', '@x'),
    ]) {
      const sql = neon(wrongUri);
      await expect(sql`select ${1}::int as one`).rejects.toThrowError(
        'password authentication failed',
      );
    }
    const origin = new URL(serve.base).origin;
    const refused = await fetch(`${origin}/sql`, {
      method: 'POST',
      headers: { 'Neon-Connection-String': neonUri.replace(/:[^:@/]+@/, ':not-it@') },
      body: '{"query": "select 1", "params": []}',
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      code: '',
      message: "password authentication failed for user 'neondb_owner'",
    });
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
    await expect(wrong.query('select 1')).rejects.toMatchObject({ code: 'XX000' });
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

describe("SQL over HTTP at the real proxy's limits", () => {
  /** The real proxy's `sql_over_http_max_response_size_bytes`: 10 MiB. */
  const LIMIT = 10 * 1024 * 1024;
  /** The body of the real proxy's 507. */
  const TOO_LARGE = {
    message: `response is too large (max is ${LIMIT} bytes)`,
    code: '',
    detail: null,
    hint: null,
    position: null,
    internalPosition: null,
    internalQuery: null,
    severity: '',
    where: null,
    table: null,
    column: null,
    schema: null,
    dataType: null,
    constraint: null,
    file: null,
    line: null,
    routine: null,
  };
  let serve: PgServe;
  let origin: string;
  let bigUri: string;
  let otherUri: string;

  /** The URI of `project`'s compute as an app has it (its host names the compute). */
  const hostUri = async (project: Project) => {
    const endpoint = await serve.call(
      'GET',
      `/projects/${project.id}/endpoints/${project.endpointId}`,
    );
    const url = new URL(project.uri);
    return `postgresql://${url.username}:${url.password}@${endpoint.body['endpoint'].host as string}/neondb`;
  };
  /** One `POST /sql` (rows as arrays); the status and the body's text. */
  const post = async (uri: string, body: unknown) => {
    const answer = await fetch(`${origin}/sql`, {
      method: 'POST',
      headers: { 'Neon-Connection-String': uri, 'Neon-Array-Mode': 'true' },
      body: JSON.stringify(body),
    });
    return { status: answer.status, text: await answer.text() };
  };

  beforeAll(async () => {
    serve = await startPgServe();
    const big = await serve.project('big');
    const other = await serve.project('other');
    await serve.advance('10s');
    bigUri = await hostUri(big);
    otherUri = await hostUri(other);
    origin = new URL(serve.base).origin;
  });
  afterAll(async () => {
    await serve.stop();
  });

  it("refuses a result past 10 MiB with the proxy's 507, another project answered meanwhile and after", async () => {
    const selectOne = { query: 'select 1 as one' };
    expect((await post(otherUri, selectOne)).status).toBe(200);
    expect((await post(bigUri, selectOne)).status).toBe(200);
    const opens = serve.server.postgres?.databases.opens;
    // 12 million rows: gathered whole, the answer was a RangeError (a string past V8's length).
    const big = post(bigUri, { query: 'select generate_series(1, 12000000) as g' });
    const meanwhile = await post(otherUri, selectOne);
    expect(meanwhile.status).toBe(200);
    expect(JSON.parse(meanwhile.text)).toMatchObject({ rows: [['1']], rowCount: 1 });
    const refused = await big;
    expect(refused.status).toBe(507);
    expect(JSON.parse(refused.text)).toEqual(TOO_LARGE);
    // The statement was abandoned, not its database stopped: both answer at once, none reopened.
    expect(JSON.parse((await post(otherUri, selectOne)).text)).toMatchObject({ rows: [['1']] });
    expect(JSON.parse((await post(bigUri, selectOne)).text)).toMatchObject({ rows: [['1']] });
    expect(serve.server.postgres?.databases.opens).toBe(opens);
    // The driver reports it as the real service's answer.
    neonConfig.fetchEndpoint = () => `${origin}/sql`;
    try {
      const failure = await neon(
        bigUri,
      )`select repeat('x', 1000) from generate_series(1, 20000)`.catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(NeonDbError);
      expect((failure as Error).message).toContain('HTTP status 507');
      expect((failure as Error).message).toContain(TOO_LARGE.message);
    } finally {
      neonConfig.fetchEndpoint = undefined as never;
    }
  });

  it('rolls back a statement refused for its size, in a batch or alone', async () => {
    await post(bigUri, { query: 'create table kept (n int)' });
    const alone = await post(bigUri, {
      query:
        "insert into kept select g from generate_series(1, 20000) g returning repeat('x', 1000)",
    });
    expect(alone.status).toBe(507);
    const batch = await post(bigUri, {
      queries: [
        { query: 'insert into kept values (1)' },
        { query: "select repeat('x', 1000) from generate_series(1, 20000)" },
      ],
    });
    expect(batch.status).toBe(507);
    const count = await post(bigUri, { query: 'select count(*)::int as n from kept' });
    expect(JSON.parse(count.text)).toMatchObject({ rows: [['0']] });
  });

  it('passes whole a result whose last row comes under the limit, and refuses one row more', async () => {
    // Rows of 1,000 x: each `["xxx…"]` is 1,004 bytes of JSON, and a comma between two.
    const rows = (n: number) =>
      post(bigUri, {
        query: "select repeat('x', 1000) as v from generate_series(1, $1::int)",
        params: [n],
      });
    const one = await rows(1);
    const prefix = one.text.indexOf('"rows":[') + '"rows":['.length;
    // As the proxy: a row is refused when the JSON before it is past the limit, so the largest
    // result that passes has its last row start at or under it.
    const most = Math.floor((LIMIT - prefix + 1) / 1005) + 1;
    const whole = await rows(most);
    expect(whole.status).toBe(200);
    const answer = JSON.parse(whole.text) as { rows: string[][]; rowCount: number };
    expect(answer.rows).toHaveLength(most);
    expect(answer.rowCount).toBe(most);
    expect(answer.rows.every(([v]) => v === 'x'.repeat(1000))).toBe(true);
    expect(Buffer.byteLength(whole.text)).toBeGreaterThan(LIMIT - 1005);
    const past = await rows(most + 1);
    expect(past.status).toBe(507);
    expect(JSON.parse(past.text)).toEqual(TOO_LARGE);
  });

  it('takes 32,767 parameters, and refuses more as the proxy does (never a 500)', async () => {
    const numbered = (n: number) => Array.from({ length: n }, (_, i) => `$${i + 1}`).join(',');
    const values = (n: number) => Array.from({ length: n }, (_, i) => i);
    const most = await post(bigUri, {
      query: `select cardinality(array[${numbered(32767)}]::int[]) as n`,
      params: values(32767),
    });
    expect(most.status).toBe(200);
    expect(JSON.parse(most.text)).toMatchObject({ rows: [['32767']] });
    // The proxy's client counts a Bind's parameters in a signed 16-bit integer: past it, it fails
    // to encode the message (Postgres itself would take 65,535).
    for (const count of [32768, 40000, 65536]) {
      const refused = await post(bigUri, { query: 'select 1', params: values(count) });
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text)).toEqual({
        severity: 'ERROR',
        code: '08P01',
        message: 'error encoding message to server: value too large to transmit',
      });
    }
  });

  it('refuses a role or database name that is not UTF-8 with a 400 and a code; a bad escape stays as it is', async () => {
    const url = new URL(bigUri);
    const withUser = (user: string) => bigUri.replace(`//${url.username}:`, `//${user}:`);
    const notUtf8 = await post(withUser('%ff'), { query: 'select 1' });
    expect(notUtf8.status).toBe(400);
    expect(JSON.parse(notUtf8.text)).toEqual({
      severity: 'ERROR',
      code: '08P01',
      message: 'invalid username: invalid utf-8 sequence of 1 bytes from index 0',
    });
    const database = await post(bigUri.replace(/\/neondb$/, '/ab%c3%28'), { query: 'select 1' });
    expect(database.status).toBe(400);
    expect(JSON.parse(database.text)).toMatchObject({
      code: '08P01',
      message: 'invalid username: invalid utf-8 sequence of 1 bytes from index 2',
    });
    // `%zz` is no escape: the role is named so, and is no role of the project.
    const literal = await post(withUser('%zz'), { query: 'select 1' });
    expect(literal.status).toBe(400);
    expect(JSON.parse(literal.text)).toMatchObject({
      code: '',
      message: "password authentication failed for user '%zz'",
    });
    const password = await post(bigUri.replace(`:${url.password}@`, ':%zz%@'), {
      query: 'select 1',
    });
    expect(JSON.parse(password.text)).toMatchObject({
      code: '',
      message: expect.stringContaining('password authentication failed'),
    });
  });

  it("refuses a body past 10 MiB with the proxy's 413, unread", async () => {
    const huge = { query: 'select $1::text as t', params: ['x'.repeat(LIMIT + 1)] };
    const refused = await post(otherUri, huge);
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.text)).toMatchObject({
      message: `request is too large (max is ${LIMIT} bytes)`,
    });
    expect((await post(otherUri, { query: 'select 1 as one' })).status).toBe(200);
  });

  it('refuses COPY … PROGRAM with 42501, and restarts a database a statement built at run time broke', async () => {
    const refused = await post(bigUri, { query: "copy (select 1) to program 'id'" });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text)).toMatchObject({
      code: '42501',
      message: 'permission denied to COPY to or from an external program',
    });
    const broke = await post(bigUri, {
      query: "do $$ begin execute 'co' || 'py (select 1) to program ''id'''; end $$",
    });
    expect(broke.status).toBe(400);
    expect(JSON.parse(broke.text)).toMatchObject({
      code: '08006',
      message: expect.stringContaining('restarted'),
    });
    expect(JSON.parse((await post(bigUri, { query: 'select 2 as two' })).text)).toMatchObject({
      rows: [['2']],
    });
  });

  it('refuses a method other than POST with a 405 that says so, and answers a CORS preflight', async () => {
    const get = await fetch(`${origin}/sql`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('OPTIONS, POST');
    expect(await get.json()).toEqual({
      code: 'method_not_allowed',
      message: 'method GET is not allowed on /sql: SQL over HTTP is POST /sql',
    });
    const put = await fetch(`${origin}/sql`, { method: 'PUT', body: '{}' });
    expect(put.status).toBe(405);
    expect(await put.json()).toMatchObject({ code: 'method_not_allowed' });
    const preflight = await fetch(`${origin}/sql`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain(
      'Neon-Connection-String',
    );
  });
});
