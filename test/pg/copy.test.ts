/**
 * COPY through the front with a real client library (pg-copy-streams on node-postgres): rows in
 * from the client (outside and inside a transaction, whose earlier work stays), rows out to it, a
 * client's CopyFail answered with the backend's error, a statement that only mentions COPY run
 * once, COPY data past the front's bound refused; and the front goes on serving after each.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgServe, type PgServe } from '../support/pgServe.js';

describe('COPY through the front', () => {
  let serve: PgServe;
  let client: pg.Client;

  beforeAll(async () => {
    serve = await startPgServe();
    const project = await serve.project('copies');
    await serve.advance('10s');
    client = new pg.Client(project.uri);
    await client.connect();
    await client.query('create table items (id int, name text)');
  });
  afterAll(async () => {
    await client.end();
    await serve.stop();
  });

  const count = async () =>
    (await client.query<{ n: number }>('select count(*)::int as n from items')).rows[0]?.n;

  it('copies rows in from the client', async () => {
    const rows = Array.from({ length: 5_000 }, (_, i) => `${i}\titem ${i}\n`).join('');
    await pipeline(Readable.from([rows]), client.query(copyFrom('COPY items FROM STDIN')));
    expect(await count()).toBe(5_000);
  });

  it('copies rows in inside a transaction, which keeps its earlier work', async () => {
    await client.query('begin');
    await client.query("insert into items values (-1, 'before')");
    await pipeline(
      Readable.from(['-2\tcopied\n', '-3\tcopied\n']),
      client.query(copyFrom('copy items (id, name) from stdin')),
    );
    await client.query('commit');
    const { rows } = await client.query<{ name: string }>(
      'select name from items where id < 0 order by id desc',
    );
    expect(rows.map((r) => r.name)).toEqual(['before', 'copied', 'copied']);
  });

  it('copies rows out to the client', async () => {
    const chunks: Buffer[] = [];
    const out = client.query(
      copyTo('COPY (select id, name from items where id < 0 order by id) TO STDOUT'),
    );
    for await (const chunk of out) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('-3\tcopied\n-2\tcopied\n-1\tbefore\n');
  });

  it("answers a client's CopyFail with the backend's error, and goes on", async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('the client gave up'));
      },
    });
    await expect(
      pipeline(failing, client.query(copyFrom('COPY items FROM STDIN'))),
    ).rejects.toThrow();
    expect(await count()).toBe(5_003);
  });

  it('runs once a COPY that only mentions FROM STDIN, in a transaction or not', async () => {
    const copied = async () => {
      const chunks: Buffer[] = [];
      const sql = "COPY (select 'from stdin' as text, nextval('seen')) TO STDOUT";
      for await (const chunk of client.query(copyTo(sql))) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString();
    };
    await client.query('create sequence seen');
    expect(await copied()).toBe('from stdin\t1\n');
    await client.query('begin');
    await client.query("insert into items values (-10, 'in a transaction')");
    expect(await copied()).toMatch(/^from stdin\t\d\n$/);
    await client.query('commit');
    expect(await count()).toBe(5_004);
  });

  it('fails a COPY FROM STDIN it cannot serve (after another statement, or extended) and goes on', async () => {
    await expect(client.query('select 1; copy items from stdin')).rejects.toThrow();
    await expect(
      client.query({ text: 'copy items from stdin', values: [] as never[] }),
    ).rejects.toThrow();
    expect(await count()).toBeGreaterThan(0); // the database still answers
  });

  it('refuses more than 64 MiB of COPY data for one statement, and the session goes on', async () => {
    const before = await count();
    const chunk = `${'9\t'}${'x'.repeat(1024 * 1024 - 4)}\n`; // one row of 1 MiB
    const rows = Array.from({ length: 65 }, () => chunk);
    await expect(
      pipeline(Readable.from(rows), client.query(copyFrom('COPY items FROM STDIN'))),
    ).rejects.toMatchObject({ message: expect.stringContaining('more than 64 MiB of COPY data') });
    expect(await count()).toBe(before); // nothing of it went in
  });
});
