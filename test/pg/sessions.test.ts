/**
 * Each client is its own session, though the clients of a database share one embedded backend:
 * one client's settings, temporary tables and prepared statements are invisible to the next and
 * still there when its turn comes again; the startup's `application_name` and `options=-c …` are
 * applied (an unknown one refused at connect, as Postgres does); a client's temporary tables go
 * with it; a NOTIFY reaches the clients that LISTEN on its channel, and only them.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientConfig, startPgServe, type PgServe } from '../support/pgServe.js';

type Project = Awaited<ReturnType<PgServe['project']>>;

describe('a session per client on a shared backend', () => {
  let serve: PgServe;
  let project: Project;

  beforeAll(async () => {
    serve = await startPgServe();
    project = await serve.project('sessions');
    await serve.advance('10s');
  });
  afterAll(async () => {
    await serve.stop();
  });

  /** The project's URI with `options` of the test's own besides the compute's. */
  const withOptions = (options: string, extra: pg.ClientConfig = {}): pg.ClientConfig =>
    clientConfig(project.uri, { options: `endpoint=${project.endpointId} ${options}`, ...extra });

  const setting = async (client: pg.Client, name: string) =>
    (await client.query<{ v: string }>('select current_setting($1) as v', [name])).rows[0]?.v;

  it("keeps each client's settings, temporary tables and prepared statements its own", async () => {
    const a = new pg.Client(project.uri);
    const b = new pg.Client(project.uri);
    await Promise.all([a.connect(), b.connect()]);

    await a.query("set statement_timeout = '7s'");
    await a.query('create temp table scratch (id int primary key, note text)');
    await a.query("insert into scratch values (1, 'from a')");
    const byA = await a.query({ name: 'pick', text: 'select $1::int * 2 as n', values: [21] });
    expect(byA.rows).toEqual([{ n: 42 }]);

    // b starts clean, though a left all that on the backend they share.
    expect(await setting(b, 'statement_timeout')).toBe('0');
    await expect(b.query('select * from scratch')).rejects.toMatchObject({ code: '42P01' });
    await b.query('create temp table scratch (id int primary key, note text)');
    await b.query("insert into scratch values (2, 'from b')");
    const byB = await b.query({ name: 'pick', text: 'select $1::text as n', values: ['b'] });
    expect(byB.rows).toEqual([{ n: 'b' }]);
    await b.query("set statement_timeout = '9s'");

    // a's turn again: all of it is as a left it.
    expect(await setting(a, 'statement_timeout')).toBe('7s');
    expect((await a.query('select id, note from scratch')).rows).toEqual([
      { id: 1, note: 'from a' },
    ]);
    const again = await a.query({ name: 'pick', text: 'select $1::int * 2 as n', values: [5] });
    expect(again.rows).toEqual([{ n: 10 }]);
    // …and b's, after it.
    expect(await setting(b, 'statement_timeout')).toBe('9s');
    expect((await b.query('select note from scratch')).rows).toEqual([{ note: 'from b' }]);
    await Promise.all([a.end(), b.end()]);
  });

  it('applies application_name and options=-c … from the startup message', async () => {
    const other = new pg.Client(project.uri);
    await other.connect();
    const defaultPath = await setting(other, 'search_path');
    const client = new pg.Client(
      withOptions('-c search_path=audit,public -c work_mem=8MB', {
        application_name: 'orders-api',
      }),
    );
    await client.connect();
    expect(await setting(client, 'application_name')).toBe('orders-api');
    expect(await setting(client, 'search_path')).toBe('audit,public');
    expect(await setting(client, 'work_mem')).toBe('8MB');
    expect(await setting(other, 'search_path')).toBe(defaultPath);
    expect(await setting(other, 'application_name')).toBe('');
    await Promise.all([client.end(), other.end()]);
  });

  it('refuses an unknown startup setting at connect, as Postgres does', async () => {
    const client = new pg.Client(withOptions('-c no_such_setting=1'));
    await expect(client.connect()).rejects.toMatchObject({ code: '42704' });
  });

  it("drops a client's temporary tables once it has gone", async () => {
    const leaving = new pg.Client(project.uri);
    await leaving.connect();
    await leaving.query('create temp table left_behind (x int)');
    await leaving.end();
    const next = new pg.Client(project.uri);
    await next.connect();
    await next.query('select 1');
    const kept = await next.query<{ n: number }>(
      "select count(*)::int as n from pg_class where relname like 'left_behind%'",
    );
    expect(kept.rows).toEqual([{ n: 0 }]);
    await next.end();
  });

  it('delivers a NOTIFY to the clients that LISTEN on its channel, and only to them', async () => {
    const [a, b, c] = [0, 1, 2].map(() => new pg.Client(project.uri)) as [
      pg.Client,
      pg.Client,
      pg.Client,
    ];
    await Promise.all([a, b, c].map((client) => client.connect()));
    const heard = new Map<pg.Client, string[]>([a, b, c].map((client) => [client, []]));
    for (const client of [a, b, c])
      client.on('notification', (n) => heard.get(client)?.push(`${n.channel}:${n.payload ?? ''}`));

    await a.query('LISTEN orders');
    await c.query('listen "orders"');
    await b.query("NOTIFY orders, 'placed 7'");
    await expect.poll(() => heard.get(a)).toEqual(['orders:placed 7']);
    await expect.poll(() => heard.get(c)).toEqual(['orders:placed 7']);
    expect(heard.get(b)).toEqual([]); // b does not listen

    await a.query('UNLISTEN orders'); // c still listens: the backend must go on listening
    await b.query("select pg_notify('orders', 'placed 8')");
    await expect.poll(() => heard.get(c)).toEqual(['orders:placed 7', 'orders:placed 8']);
    expect(heard.get(a)).toEqual(['orders:placed 7']); // written before c's, had it been sent
    await Promise.all([a.end(), b.end(), c.end()]);
  });
});
