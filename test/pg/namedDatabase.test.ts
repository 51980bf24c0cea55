/**
 * A branch database's embedded Postgres opens under the control plane's name for it: renamed once,
 * the name noted beside the data, and found again from the catalog when the note was lost.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNamed } from '../../src/pg/namedDatabase.js';

async function currentName(db: PGlite): Promise<string> {
  const { rows } = await db.query<{ name: string }>('select current_database() as name');
  await db.close();
  return rows[0]?.name ?? '';
}

describe('openNamed', () => {
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'computesim-named-'));
    const made = await PGlite.create(dir);
    await made.exec('create table kept (x int); insert into kept values (7)');
    await made.close();
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('opens as it is when asked for no name, and renames to the name asked for, data and all', async () => {
    expect(await currentName(await openNamed(dir, undefined))).toBe('postgres');
    const renamed = await openNamed(dir, 'neondb');
    expect((await renamed.query('select x from kept')).rows).toEqual([{ x: 7 }]);
    expect(await currentName(renamed)).toBe('neondb');
    expect(await currentName(await openNamed(dir, undefined))).toBe('neondb');
    expect(await currentName(await openNamed(dir, 'my "app"'))).toBe('my "app"');
  }, 60_000);

  it('keeps its name rather than take a template’s', async () => {
    expect(await currentName(await openNamed(dir, 'template1'))).toBe('my "app"');
  }, 60_000);

  it('keeps its name when a database of the name asked for was made inside it', async () => {
    const inside = await openNamed(dir, undefined);
    await inside.exec('create database taken');
    await inside.close();
    expect(await currentName(await openNamed(dir, 'taken'))).toBe('my "app"');
  }, 60_000);

  it('finds its name in the catalog when the note beside the data is wrong', async () => {
    writeFileSync(join(dir, 'computesim-database-name'), 'neondb');
    expect(await currentName(await openNamed(dir, undefined))).toBe('my "app"');
    expect(await currentName(await openNamed(dir, 'neondb'))).toBe('neondb');
  }, 60_000);
});
