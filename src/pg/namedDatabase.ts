/**
 * An embedded Postgres opened under the name its clients asked for: a branch database's data
 * directory holds one database, made by initdb as `postgres`, and renamed to the control plane's
 * name for it (`neondb`, `app`…) the first time it opens under that name, so `current_database()`
 * and the catalog say what the real compute would. The name it holds is kept beside the data
 * (a directory without the note holds `postgres`); a rename costs one more open, once.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/** The note of the name the data directory's database has now. */
const NAME_FILE = 'computesim-database-name';
/** What initdb names it. */
const INITIAL_NAME = 'postgres';
/** Names a database cannot take (initdb's templates): such a database keeps the name it has. */
const TEMPLATES: ReadonlySet<string> = new Set(['template0', 'template1']);

/** Opens the database in `dir`, renamed to `name` first when it is named otherwise. */
export async function openNamed(dir: string, name: string | undefined): Promise<PGlite> {
  const noted = notedName(dir);
  if (name === undefined || name === noted || TEMPLATES.has(name)) return openOrRecover(dir, noted);
  return PGlite.create(dir, { database: await rename(dir, name) });
}

/** The name the note gives, or initdb's. */
function notedName(dir: string): string {
  const file = join(dir, NAME_FILE);
  return existsSync(file) ? readFileSync(file, 'utf8') : INITIAL_NAME;
}

/**
 * Opens under `name`; when that fails (a rename done, then a crash before its note was written),
 * reads the name from the catalog and opens under that.
 */
async function openOrRecover(dir: string, name: string): Promise<PGlite> {
  try {
    return await PGlite.create(dir, { database: name });
  } catch (error) {
    const actual = await withTemplate(dir, (admin) => heldName(admin));
    if (actual === undefined || actual === name) throw error;
    writeFileSync(join(dir, NAME_FILE), actual);
    return PGlite.create(dir, { database: actual });
  }
}

/**
 * Renames the directory's database to `name` (from a connection to `template1`), and notes it;
 * resolves to the name it has after. A client may have made a database of that name inside the
 * instance (`CREATE DATABASE`): then it keeps the name it has.
 */
async function rename(dir: string, name: string): Promise<string> {
  const kept = await withTemplate(dir, async (admin) => {
    const held = (await heldName(admin)) ?? INITIAL_NAME;
    if (held === name) return name;
    const { rows } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (rows.length > 0) return held;
    await admin.exec(`alter database ${identifier(held)} rename to ${identifier(name)}`);
    return name;
  });
  writeFileSync(join(dir, NAME_FILE), kept);
  return kept;
}

async function withTemplate<T>(dir: string, work: (admin: PGlite) => Promise<T>): Promise<T> {
  const admin = await PGlite.create(dir, { database: 'template1' });
  try {
    return await work(admin);
  } finally {
    await admin.close();
  }
}

/** The one database of the directory that is not a template. */
async function heldName(admin: PGlite): Promise<string | undefined> {
  const { rows } = await admin.query<{ datname: string }>(
    'select datname from pg_database where not datistemplate order by oid limit 1',
  );
  return rows[0]?.datname;
}

/** `name` as a quoted SQL identifier. */
function identifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
