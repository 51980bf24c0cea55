/**
 * The Postgres front on both engines, as real clients see it: what every engine gives (the
 * database the URI names, read replicas that refuse writes, work that keeps a compute awake at a
 * fast clock, a branch's data copied from its parent, SQL over HTTP), and what only a backend per
 * client gives (`--pg-engine postgres`): other sessions in `pg_stat_activity`, a cancel or a
 * `pg_terminate_backend` that touches one session and no other, clients served at once.
 */
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientConfig, droppedWith, startPgServe, type PgServe } from '../support/pgServe.js';
import { describeWith } from '../support/systemPrograms.js';
import type { PostgresEngine } from '../../src/pg/postgresFront.js';
import { cancelRequest } from '../../src/pg/cancelKeys.js';

/** Sends a CancelRequest for `client`'s running statement to the front, as drivers do. */
function cancelThroughFront(serve: PgServe, client: pg.Client): Promise<void> {
  const key = client as unknown as { processID: number; secretKey: number };
  const request = cancelRequest({ processId: key.processID, secret: key.secretKey });
  return new Promise((resolve, reject) => {
    const socket = net.connect(serve.postgres.port, '127.0.0.1', () => socket.end(request));
    socket.on('error', reject);
    socket.on('close', () => resolve());
  });
}

async function computeState(serve: PgServe, id: string, endpointId: string): Promise<string> {
  const got = await serve.call('GET', `/projects/${id}/endpoints/${endpointId}`);
  return got.body['endpoint'].current_state as string;
}

/** What both engines give a client. */
function everyEngine(engine: PostgresEngine): void {
  let serve: PgServe;
  beforeAll(async () => {
    serve = await startPgServe({ engine });
  });
  afterAll(async () => {
    await serve.stop();
  });

  it('serves the database the URI names, under its name, with its role', async () => {
    const project = await serve.project('named');
    const client = new pg.Client(project.uri);
    await serve.connect(client);
    const { rows } = await client.query('select current_database() as db, current_user as role');
    // PGlite has one role, its superuser (docs/postgres-engines.md).
    expect(rows).toEqual([
      { db: 'neondb', role: engine === 'postgres' ? 'neondb_owner' : 'postgres' },
    ]);
    await client.query('create table t (x int); insert into t values (41), (1)');
    expect((await client.query('select sum(x)::int as s from t')).rows).toEqual([{ s: 42 }]);
    await client.end();
  });

  it("gives a new branch its parent's data, and a read replica refuses writes", async () => {
    const project = await serve.project('branched');
    const parent = new pg.Client(project.uri);
    await serve.connect(parent);
    await parent.query("create table kept (v text); insert into kept values ('before')");
    // On a real Postgres the parent's client may stay in a transaction while the branch is made
    // (PGlite's copy waits for it to end: docs/postgres-engines.md).
    const open = engine === 'postgres';
    if (open) await parent.query("begin; insert into kept values ('uncommitted')");
    const created = await serve.call('POST', `/projects/${project.id}/branches`, {
      branch: { name: 'child' },
      endpoints: [{ type: 'read_only' }],
    });
    expect(created.status).toBe(201);
    const child = new pg.Client(created.body['connection_uris'][0].connection_uri as string);
    await serve.connect(child);
    expect((await child.query('select v from kept')).rows).toEqual([{ v: 'before' }]);
    await expect(child.query("insert into kept values ('no')")).rejects.toMatchObject({
      code: '25006',
    });
    if (open) await parent.query('commit');
    expect((await parent.query('select count(*)::int as n from kept')).rows).toEqual([
      { n: open ? 2 : 1 },
    ]);
    await Promise.all([parent.end(), child.end()]);
  });

  it('answers SQL over HTTP', async () => {
    const project = await serve.project('http');
    await serve.advance('10s'); // the compute has started
    const config = clientConfig(project.uri);
    const endpoint = await serve.call(
      'GET',
      `/projects/${project.id}/endpoints/${project.endpointId}`,
    );
    const host = endpoint.body['endpoint'].host as string;
    const connection = `postgresql://${String(config.user)}:${String(config.password)}@${host}/neondb`;
    const answer = await fetch(`${new URL(serve.base).origin}/sql`, {
      method: 'POST',
      headers: { 'neon-connection-string': connection, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'select $1::int + 1 as n', params: [41] }),
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { rows: unknown[] }).rows).toEqual([{ n: '42' }]);
  });
}

/** Work at a 600x clock: a statement of 2 s wall (20 simulated minutes) keeps its compute up. */
function everyEngineAtSpeed(engine: PostgresEngine): void {
  it('keeps a compute awake through a long statement at 600x, and lets it sleep after', async () => {
    const serve = await startPgServe({ engine, clock: '600x' });
    try {
      const project = await serve.project('busy');
      const client = new pg.Client(project.uri);
      const dropped = droppedWith(client);
      await client.connect();
      await client.query('select pg_sleep(2)');
      expect(await computeState(serve, project.id, project.endpointId)).toBe('active');
      // Idle now: five simulated minutes are half a wall second.
      expect(await dropped).toMatchObject({ code: '57P01' });
      await expect
        .poll(() => computeState(serve, project.id, project.endpointId), { timeout: 20_000 })
        .toBe('idle');
      await expect.poll(() => serve.server.postgres?.databases.openCount).toBe(0);
      await client.end().catch(() => undefined);
    } finally {
      await serve.stop();
    }
  });
}

describe('PGlite (the default engine)', () => {
  everyEngine('pglite');
  everyEngineAtSpeed('pglite');
});

describeWith('postgres', 'a Postgres server (--pg-engine postgres)', () => {
  everyEngine('postgres');
  everyEngineAtSpeed('postgres');

  describe('a backend per client', () => {
    let serve: PgServe;
    let uri: string;
    beforeAll(async () => {
      serve = await startPgServe({ engine: 'postgres' });
      uri = (await serve.project('sessions')).uri;
    });
    afterAll(async () => {
      await serve.stop();
    });

    async function connected(count: number): Promise<pg.Client[]> {
      const clients = Array.from({ length: count }, () => new pg.Client(uri));
      for (const client of clients) await serve.connect(client);
      return clients;
    }

    it('gives each client its own backend, which pg_stat_activity lists', async () => {
      const clients = await connected(3);
      const pids = await Promise.all(
        clients.map(
          async (client) =>
            (await client.query('select pg_backend_pid() as pid')).rows[0].pid as number,
        ),
      );
      // The key each client was given is its backend's: a cancel or a terminate names it.
      expect(pids).toEqual(
        clients.map((client) => (client as unknown as { processID: number }).processID),
      );
      expect(new Set(pids).size).toBe(3);
      const listed = await clients[0]?.query(
        "select pid from pg_stat_activity where datname = 'neondb' and backend_type = 'client backend'",
      );
      expect(listed?.rows.map((row: { pid: number }) => row.pid)).toEqual(
        expect.arrayContaining(pids),
      );
      await Promise.all(clients.map((client) => client.end()));
    });

    it("cancels one client's statement and leaves every other session as it was", async () => {
      const [sleeper, keeper, bystander] = await connected(3);
      await keeper?.query(
        "create temp table mine (x int); insert into mine values (7); set application_name = 'keeper'",
      );
      // The others are answered while it sleeps: each client has a backend of its own.
      const sleeping = sleeper?.query('select pg_sleep(30)');
      await expect
        .poll(
          async () =>
            (
              await bystander?.query(
                "select count(*)::int as n from pg_stat_activity where query = 'select pg_sleep(30)' and state = 'active'",
              )
            )?.rows[0].n,
        )
        .toBe(1);
      await cancelThroughFront(serve, sleeper as pg.Client);
      await expect(sleeping).rejects.toMatchObject({ code: '57014' });
      expect((await bystander?.query('select 1 as one'))?.rows).toEqual([{ one: 1 }]);
      expect((await keeper?.query('select x from mine'))?.rows).toEqual([{ x: 7 }]);
      expect((await keeper?.query('show application_name'))?.rows).toEqual([
        { application_name: 'keeper' },
      ]);
      // The cancelled client goes on, on the same backend.
      expect((await sleeper?.query('select 2 as two'))?.rows).toEqual([{ two: 2 }]);
      await Promise.all([sleeper, keeper, bystander].map((client) => client?.end()));
    });

    it("keeps clients from the server's programs, as the service's roles are kept", async () => {
      const [client] = await connected(1);
      // A role that could grant itself pg_execute_server_program could run programs as the
      // server's user, which owns every project's data.
      await expect(
        client?.query('grant pg_execute_server_program to current_user'),
      ).rejects.toMatchObject({ code: '42501' });
      await expect(client?.query("copy (select 1) to program 'id'")).rejects.toMatchObject({
        code: '42501',
      });
      await client?.end();
    });

    it("follows a database's rename with its data, and drops only the control plane's", async () => {
      const project = await serve.project('renames');
      const databases = `/projects/${project.id}/branches/${project.branchId}/databases`;
      const owner = new pg.Client(project.uri);
      await serve.connect(owner);
      await owner.query("create table kept (v text); insert into kept values ('here')");
      await owner.query('create database mine');
      await owner.end();
      const renamed = await serve.call('PATCH', `${databases}/neondb`, {
        database: { name: 'renamed' },
      });
      expect(renamed.status).toBe(200);
      await serve.advance('10s'); // its operation ends
      const after = new pg.Client(project.uri.replace('/neondb?', '/renamed?'));
      await serve.connect(after);
      expect((await after.query('select v from kept')).rows).toEqual([{ v: 'here' }]);
      await after.end();
      // Deleting a database of the control plane leaves one a client made with SQL.
      const made = await serve.call('POST', databases, {
        database: { name: 'extra', owner_name: 'neondb_owner' },
      });
      expect(made.status).toBe(201);
      await serve.advance('10s');
      const extra = new pg.Client(project.uri.replace('/neondb?', '/extra?'));
      await serve.connect(extra);
      await extra.end();
      expect((await serve.call('DELETE', `${databases}/extra`)).status).toBe(200);
      const mine = new pg.Client(project.uri.replace('/neondb?', '/mine?'));
      await serve.connect(mine);
      expect((await mine.query('select current_database() as db')).rows).toEqual([{ db: 'mine' }]);
      await mine.end();
      const gone = new pg.Client(project.uri.replace('/neondb?', '/extra?'));
      await expect(serve.connect(gone)).rejects.toMatchObject({ code: '3D000' });
    });

    it('ends a session another terminates, and only that one', async () => {
      const [victim, killer] = await connected(2);
      const pid = (victim as unknown as { processID: number }).processID;
      const ended = droppedWith(victim as pg.Client);
      const { rows } =
        (await killer?.query('select pg_terminate_backend($1) as done', [pid])) ?? {};
      expect(rows).toEqual([{ done: true }]);
      expect(await ended).toMatchObject({ code: '57P01' });
      expect((await killer?.query('select 1 as one'))?.rows).toEqual([{ one: 1 }]);
      await killer?.end();
      await victim?.end().catch(() => undefined);
    });
  });
});
