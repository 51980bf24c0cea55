/**
 * No name a client chooses reaches the file system: branch data lives in folders named by the
 * control plane's ids, so a database named `..` or `.` is just a database (Postgres allows both), a
 * rename keeps the data, and data kept by name before (the older layout) is adopted once.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BranchDatabases } from '../../src/pg/branchDatabases.js';
import { clientConfig, startPgServe, type PgServe } from '../support/pgServe.js';

async function connectWaking(serve: PgServe, uri: string | pg.ClientConfig): Promise<pg.Client> {
  const client = new pg.Client(uri);
  client.on('error', () => undefined);
  await serve.connect(client);
  return client;
}

/**
 * `uri`'s settings pointed at database `name` (as settings: a URI's path would lose a name like
 * `..` to the URL parser's dot segments).
 */
function onDatabase(uri: string, name: string): pg.ClientConfig {
  return clientConfig(uri, {
    database: name,
    options: new URL(uri).searchParams.get('options') ?? '',
  });
}

/** `DELETE` of `path` as sent, dot segments and all (fetch would resolve `%2E` away). */
function deleteAsIs(serve: PgServe, path: string): Promise<number> {
  const base = new URL(serve.base);
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: base.hostname,
        port: base.port,
        method: 'DELETE',
        path: `${base.pathname}${path}`,
        headers: { authorization: 'Bearer pg-front-key' },
      },
      (answer) => {
        answer.resume();
        answer.on('end', () => resolve(answer.statusCode ?? 0));
      },
    );
    sent.on('error', reject);
    sent.end();
  });
}

describe('database names never reach the file system', () => {
  let serve: PgServe;
  beforeAll(async () => {
    serve = await startPgServe();
  });
  afterAll(async () => {
    await serve.stop();
  });

  it("keeps a project's data when a database named '..' is made and the project branched, each database named inside as outside", async () => {
    const project = await serve.project('dotdot');
    const client = await connectWaking(serve, project.uri);
    expect((await client.query('select current_database() as name')).rows).toEqual([
      { name: 'neondb' },
    ]);
    await client.query('create table keep (x int)');
    await client.query('insert into keep values (1)');
    await serve.advance('10s');
    const made = await serve.call(
      'POST',
      `/projects/${project.id}/branches/${project.branchId}/databases`,
      { database: { name: '..', owner_name: 'neondb_owner' } },
    );
    expect(made.status).toBe(201);
    await serve.advance('10s');
    const branched = await serve.call('POST', `/projects/${project.id}/branches`, {
      endpoints: [{ type: 'read_write' }],
    });
    expect(branched.status).toBe(201);
    await serve.advance('10s');
    const rows = await client.query<{ x: number }>('select x from keep');
    expect(rows.rows).toEqual([{ x: 1 }]);
    // '..' is a database of its own, on both branches.
    const dotdot = await connectWaking(serve, onDatabase(project.uri, '..'));
    await dotdot.query('create table here (y int)');
    // Each database is its own name inside, whatever its folder: '..' too.
    expect((await dotdot.query('select current_database() as name')).rows).toEqual([
      { name: '..' },
    ]);
    await dotdot.end();
    const branchEndpoint = branched.body['endpoints'][0].id as string;
    const onBranch = await connectWaking(
      serve,
      clientConfig(project.uri, { database: 'neondb', options: `endpoint=${branchEndpoint}` }),
    );
    expect((await onBranch.query<{ x: number }>('select x from keep')).rows).toEqual([{ x: 1 }]);
    expect((await onBranch.query('select current_database() as name')).rows).toEqual([
      { name: 'neondb' },
    ]);
    await onBranch.end();
    await client.end();
    // Every folder under the project is an id: no name was used as a path.
    const branchDir = join(serve.root, project.id, project.branchId);
    for (const folder of readdirSync(branchDir)) expect(folder).toMatch(/^db-\d+$/);
  });

  it("deletes only the database named '.', not its branch's others", async () => {
    const project = await serve.project('dot');
    const client = await connectWaking(serve, project.uri);
    await client.query('create table keep (x int)');
    await client.query('insert into keep values (2)');
    await client.end();
    await serve.advance('10s');
    const databases = `/projects/${project.id}/branches/${project.branchId}/databases`;
    expect(
      (await serve.call('POST', databases, { database: { name: '.', owner_name: 'neondb_owner' } }))
        .status,
    ).toBe(201);
    await serve.advance('10s');
    const dot = await connectWaking(serve, onDatabase(project.uri, '.'));
    await dot.query('create table gone (y int)');
    await dot.end();
    await serve.advance('10s');
    expect(await deleteAsIs(serve, `${databases}/%2E`)).toBe(200);
    await serve.advance('10s');
    const branchDir = join(serve.root, project.id, project.branchId);
    await expect.poll(() => readdirSync(branchDir).length).toBe(1);
    const again = await connectWaking(serve, project.uri);
    expect((await again.query<{ x: number }>('select x from keep')).rows).toEqual([{ x: 2 }]);
    await again.end();
  });

  it('keeps the data of a renamed database', async () => {
    const project = await serve.project('renamed');
    const client = await connectWaking(serve, project.uri);
    await client.query('create table keep (x int)');
    await client.query('insert into keep values (3)');
    await client.end();
    await serve.advance('10s');
    const renamed = await serve.call(
      'PATCH',
      `/projects/${project.id}/branches/${project.branchId}/databases/neondb`,
      { database: { name: 'appdb' } },
    );
    expect(renamed.status).toBe(200);
    await serve.advance('10s');
    const again = await connectWaking(serve, onDatabase(project.uri, 'appdb'));
    expect((await again.query<{ x: number }>('select x from keep')).rows).toEqual([{ x: 3 }]);
    await again.end();
  });
});

describe('the older layout, by name', () => {
  it('is moved to folders by id once, names that are folder names of ids included', async () => {
    const root = mkdtempSync(join(tmpdir(), 'computesim-layout-'));
    try {
      const branch = join(root, 'p-1', 'br-1');
      // Database 7 was kept as 'db-3', database 3 as 'neondb': each must end up in its own folder.
      for (const [folder, mark] of [
        ['db-3', 'seven'],
        ['neondb', 'three'],
        ['%2E', 'dot-never-moved'],
      ] as const) {
        mkdirSync(join(branch, folder), { recursive: true });
        writeFileSync(join(branch, folder, 'PG_VERSION'), mark);
      }
      const databases = new BranchDatabases({ root });
      const named = [
        { ref: { projectId: 'p-1', branchId: 'br-1', databaseId: 7 }, name: 'db-3' },
        { ref: { projectId: 'p-1', branchId: 'br-1', databaseId: 3 }, name: 'neondb' },
      ];
      await databases.adoptLegacyLayout(named);
      const read = (folder: string) => readFileSync(join(branch, folder, 'PG_VERSION'), 'utf8');
      expect(read('db-7')).toBe('seven');
      expect(read('db-3')).toBe('three');
      expect(existsSync(join(branch, 'neondb'))).toBe(false);
      // Once laid out by id, the root is left alone: a later 'neondb' folder is not adopted.
      mkdirSync(join(branch, 'neondb'));
      writeFileSync(join(branch, 'neondb', 'PG_VERSION'), 'late');
      await databases.adoptLegacyLayout(named);
      expect(read('db-3')).toBe('three');
      await databases.close();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
