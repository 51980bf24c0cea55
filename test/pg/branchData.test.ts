/**
 * Branch data through the control plane's eyes: an idle client is closed (57P01) when its compute
 * scales to zero; a reset from the parent brings the parent's rows back, and `preserve_under_name`
 * keeps the rows the branch had; with one live instance allowed, no client loses its session to the
 * cap, and the instances close back to it once their clients go.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgServe, type PgServe } from '../support/pgServe.js';

async function connectWaking(serve: PgServe, uri: string): Promise<pg.Client> {
  const client = new pg.Client(uri);
  await serve.connect(client);
  return client;
}

async function ids(client: pg.Client, table = 'items'): Promise<number[]> {
  const result = await client.query<{ id: number }>(`select id from ${table} order by id`);
  return result.rows.map((r) => r.id);
}

describe('branch data follows the control plane', () => {
  let serve: PgServe;
  beforeAll(async () => {
    serve = await startPgServe({ maxOpen: 1 });
  });
  afterAll(async () => {
    await serve.stop();
  });

  it('closes an idle client with 57P01 when its compute scales to zero', async () => {
    const project = await serve.project('idle');
    const client = await connectWaking(serve, project.uri);
    const dropped = new Promise<Error & { code?: string }>((resolve) =>
      client.on('error', resolve),
    );
    await serve.advance('6m'); // no statement, no transaction: nothing keeps the compute up
    expect(await dropped).toMatchObject({ code: '57P01' });
    await client.end().catch(() => undefined);
  });

  it('resets a branch to its parent and keeps its old rows under the preserved name', async () => {
    const project = await serve.project('resets');
    const parent = await connectWaking(serve, project.uri);
    await parent.query('create table items (id int)');
    await parent.query('insert into items values (1), (2)');
    const branched = await serve.call('POST', `/projects/${project.id}/branches`, {
      branch: { name: 'dev' },
      endpoints: [{ type: 'read_write' }],
    });
    const devId = branched.body['branch'].id as string;
    const devUri = branched.body['connection_uris'][0].connection_uri as string;
    const dev = await connectWaking(serve, devUri);
    await dev.query('insert into items values (10)');
    await parent.query('insert into items values (3)');
    expect(await ids(dev)).toEqual([1, 2, 10]);
    await dev.end();

    const restored = await serve.call('POST', `/projects/${project.id}/branches/${devId}/restore`, {
      source_branch_id: project.branchId,
      preserve_under_name: 'dev-before-reset',
    });
    expect(restored.status).toBe(200);
    await serve.advance('30s');
    const again = await connectWaking(serve, devUri);
    expect(await ids(again)).toEqual([1, 2, 3]);
    await again.end();

    const branches = await serve.call('GET', `/projects/${project.id}/branches`);
    const kept = branches.body['branches'].find(
      (b: { name: string }) => b.name === 'dev-before-reset',
    ) as { id: string };
    const keptCompute = await serve.call('POST', `/projects/${project.id}/endpoints`, {
      endpoint: { branch_id: kept.id, type: 'read_write' },
    });
    const keptId = keptCompute.body['endpoint'].id as string;
    const keptUri = await serve.call(
      'GET',
      `/projects/${project.id}/connection_uri?endpoint_id=${keptId}&role_name=neondb_owner&database_name=neondb`,
    );
    const old = await connectWaking(serve, keptUri.body['uri'] as string);
    expect(await ids(old)).toEqual([1, 2, 10]);
    await old.end();
    await parent.end();
  });

  it('keeps each connected client its session past the cap, and closes back to it once they go', async () => {
    const project = await serve.project('turns');
    const branches: string[] = [project.uri];
    for (const name of ['a', 'b']) {
      await serve.advance('10s'); // the project's last operation finishes first (no 423)
      const made = await serve.call('POST', `/projects/${project.id}/branches`, {
        branch: { name },
        endpoints: [{ type: 'read_write' }],
      });
      branches.push(made.body['connection_uris'][0].connection_uri as string);
    }
    const clients = [];
    for (const [i, uri] of branches.entries()) {
      const client = await connectWaking(serve, uri);
      await client.query('create table own (id int)');
      await client.query('insert into own values ($1)', [i]);
      await client.query('create temporary table mine (id int)');
      await client.query(`set application_name = 'client-${i}'`);
      await client.query({ name: `own-${i}`, text: 'select id from own' });
      clients.push(client);
    }
    // All three stay connected with one instance allowed: none is closed under its client.
    for (const [i, client] of clients.entries()) {
      expect(await ids(client, 'own')).toEqual([i]);
      expect(await ids(client, 'mine')).toEqual([]);
      const named = await client.query<{ name: string }>('show application_name');
      expect(Object.values(named.rows[0] ?? {})).toEqual([`client-${i}`]);
      const prepared = await client.query({ name: `own-${i}`, text: 'select id from own' });
      expect(prepared.rows).toEqual([{ id: i }]);
    }
    expect(serve.server.postgres?.databases.openCount).toBe(3);
    await Promise.all(clients.map((c) => c.end()));
    await expect.poll(() => serve.server.postgres?.databases.openCount).toBeLessThanOrEqual(1);
  });

  it('closes the database of a branch deleted for recovery at once, keeping its data', async () => {
    const project = await serve.project('closes');
    await serve.advance('10s');
    const made = await serve.call('POST', `/projects/${project.id}/branches`, {
      branch: { name: 'temp' },
      endpoints: [{ type: 'read_write' }],
    });
    const branchId = made.body['branch'].id as string;
    await serve.advance('10s');
    const client = await connectWaking(serve, made.body['connection_uris'][0].connection_uri);
    await client.query('create table t (x int)');
    await client.end();
    const open = serve.server.postgres?.databases.openCount ?? 0;
    expect(
      (await serve.call('DELETE', `/projects/${project.id}/branches/${branchId}`)).status,
    ).toBe(200);
    await expect.poll(() => serve.server.postgres?.databases.openCount).toBe(open - 1);
    expect(existsSync(join(serve.root, project.id, branchId))).toBe(true); // recoverable
  });

  it("removes a hard-deleted branch's data at once, and a deleted project's when it is purged", async () => {
    const project = await serve.project('gone');
    const client = await connectWaking(serve, project.uri);
    await client.query('create table t (x int)');
    await serve.advance('10s');
    const made = await serve.call('POST', `/projects/${project.id}/branches`, {
      branch: { name: 'scratch' },
      endpoints: [{ type: 'read_write' }],
    });
    const scratchId = made.body['branch'].id as string;
    await serve.advance('10s');
    const branchDir = join(serve.root, project.id, scratchId);
    await expect.poll(() => existsSync(branchDir)).toBe(true); // a copy of the parent's data
    const deleted = await serve.call(
      'DELETE',
      `/projects/${project.id}/branches/${scratchId}?hard_delete=true`,
    );
    expect(deleted.status).toBe(200);
    await expect.poll(() => existsSync(branchDir)).toBe(false);

    await client.end();
    expect((await serve.call('DELETE', `/projects/${project.id}`)).status).toBe(200);
    await serve.advance('1d');
    expect(existsSync(join(serve.root, project.id))).toBe(true); // recoverable for 7 days
    await serve.advance('7d');
    await expect.poll(() => existsSync(join(serve.root, project.id))).toBe(false);
  });
});
