/**
 * A Postgres client's everyday steps at the clock speeds a test picks: `manual`, 60x and 600x. At a
 * fast clock the wall time the front spends serving a client (opening the branch database, running
 * a statement) must not pass as idle time, or the compute suspends under a client that waits for
 * its answer. The 600x server starts with no template database, as on a fresh machine.
 */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { droppedWith, startPgServe, type PgServe } from '../support/pgServe.js';

type Project = Awaited<ReturnType<PgServe['project']>>;

const CLOCKS = ['manual', '60x', '600x'] as const;
const SUSPEND_SECONDS = 600;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `project` has no operation left to finish: moving a manual clock, or watching a paced one. */
async function settle(serve: PgServe, clock: string, projectId: string): Promise<void> {
  for (let i = 0; i < 500; i += 1) {
    const got = await serve.call('GET', `/projects/${projectId}/operations`);
    const busy = (got.body['operations'] as { status: string }[]).some(
      (op) => op.status === 'running' || op.status === 'scheduling',
    );
    if (!busy) return;
    if (clock === 'manual') await serve.advance('5s');
    else await pause(20);
  }
  throw new Error(`the operations of ${projectId} did not finish`);
}

/** Connects; on a manual clock the test moves time on while the compute starts. */
async function connect(serve: PgServe, clock: string, uri: string): Promise<pg.Client> {
  const client = new pg.Client(uri);
  if (clock !== 'manual') {
    await client.connect();
    return client;
  }
  await serve.connect(client);
  return client;
}

async function computeState(serve: PgServe, project: Project, endpointId = project.endpointId) {
  const got = await serve.call('GET', `/projects/${project.id}/endpoints/${endpointId}`);
  return got.body['endpoint'].current_state as string;
}

describe.each(CLOCKS)('a client at clock %s', (clock) => {
  let serve: PgServe;
  let project: Project;
  let templateDir: string | undefined;

  beforeAll(async () => {
    templateDir =
      clock === '600x'
        ? join(mkdtempSync(join(tmpdir(), 'computesim-tpl-')), 'template')
        : undefined;
    serve = await startPgServe({ clock, ...(templateDir === undefined ? {} : { templateDir }) });
    // A 10-minute suspend timeout: a second of idle wall time at 600x, so the test's own pauses
    // between statements (longer beside a busy neighbour) do not scale the compute to zero.
    project = await serve.project('steps', {
      default_endpoint_settings: { suspend_timeout_seconds: SUSPEND_SECONDS },
    });
    await settle(serve, clock, project.id);
  });
  afterAll(async () => {
    await serve.stop();
    if (templateDir !== undefined) await rm(join(templateDir, '..'), { recursive: true });
  });

  it('connects and writes; its first statement is answered, not dropped', async () => {
    const client = await connect(serve, clock, project.uri);
    await client.query('create table orders (id int primary key, item text)');
    await client.query("insert into orders values (1, 'tea'), (2, 'cake')");
    expect((await client.query('select count(*)::int as n from orders')).rows).toEqual([{ n: 2 }]);
    await client.end();
  });

  it('keeps its compute up through a statement that takes wall time', async () => {
    const client = await connect(serve, clock, project.uri);
    // At 600x, 3 s of wall time are 30 virtual minutes: three suspend timeouts.
    await client.query(`select pg_sleep(${clock === '600x' ? 3 : 0.5})`);
    expect(await computeState(serve, project)).toBe('active');
    expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await client.end();
  });

  it('connects to an active compute without opening its database again', async () => {
    const first = await connect(serve, clock, project.uri);
    const opens = serve.server.postgres?.databases.opens;
    const second = await connect(serve, clock, project.uri);
    expect((await second.query('select count(*)::int as n from orders')).rows).toEqual([{ n: 2 }]);
    expect(serve.server.postgres?.databases.opens).toBe(opens);
    await Promise.all([first.end(), second.end()]);
  });

  it('scales to zero, closes the database, and wakes up with the rows', async () => {
    await serve.advance(`${SUSPEND_SECONDS + 60}s`);
    expect(await computeState(serve, project)).toBe('idle');
    await expect.poll(() => serve.server.postgres?.databases.openCount).toBe(0);
    const client = await connect(serve, clock, project.uri);
    const { rows } = await client.query<{ item: string }>('select item from orders order by id');
    expect(rows.map((r) => r.item)).toEqual(['tea', 'cake']);
    await client.end();
  });

  it("gives a branch its parent's rows, and a replica that refuses writes with 25006", async () => {
    const branched = await serve.call('POST', `/projects/${project.id}/branches`, {
      branch: { name: 'preview' },
      endpoints: [{ type: 'read_write' }, { type: 'read_only' }],
    });
    expect(branched.status).toBe(201);
    await settle(serve, clock, project.id);
    const uris = branched.body['connection_uris'] as { connection_uri: string }[];
    const endpoints = branched.body['endpoints'] as { id: string; type: string }[];
    const child = await connect(serve, clock, uris[0]?.connection_uri as string);
    expect((await child.query('select count(*)::int as n from orders')).rows).toEqual([{ n: 2 }]);
    await child.end();
    const replicaId = endpoints.find((e) => e.type === 'read_only')?.id as string;
    const uri = await serve.call(
      'GET',
      `/projects/${project.id}/connection_uri?endpoint_id=${replicaId}&role_name=neondb_owner&database_name=neondb`,
    );
    const replica = await connect(serve, clock, uri.body['uri'] as string);
    expect((await replica.query('select count(*)::int as n from orders')).rows).toEqual([{ n: 2 }]);
    await expect(replica.query("insert into orders values (9, 'x')")).rejects.toMatchObject({
      code: '25006',
    });
    await replica.end();
  });

  it('refuses a wrong password (XX000, as the real proxy)', async () => {
    const wrong = new pg.Client(project.uri.replace(/:[^:@/]+@/, ':not-the-password@'));
    await expect(wrong.connect()).rejects.toMatchObject({ code: 'XX000' });
  });

  it('drops an open client with 57P01 when its compute is resized', async () => {
    const client = await connect(serve, clock, project.uri);
    const dropped = droppedWith(client);
    expect(await serve.resize(project, 1)).toBe(200);
    if (clock === 'manual') await serve.advance('1s');
    expect(await dropped).toMatchObject({ code: '57P01' });
    await client.end().catch(() => undefined);
  });
});
