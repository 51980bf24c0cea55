/**
 * The front's own statements on a branch's Postgres server, run as its superuser: the roles and
 * databases of the control plane made as clients first name them, renamed and given new owners as
 * the control plane changes them, and dropped as it deletes them. Only databases the front made
 * (marked with a comment) are ever dropped: one a client made with `CREATE DATABASE` stays.
 */
import { adminQuery, quotedName, quotedText } from './adminQuery.js';
import type { BackendLink } from './backendLink.js';

/** The roles the clients' roles are made members of, as the service's roles are. */
const CLIENT_ROLE_GRANTS = 'pg_monitor, pg_signal_backend';
/**
 * The first major version whose `CREATEROLE` cannot grant roles it was not given with ADMIN
 * OPTION: before it, a role that may create roles may also grant itself
 * `pg_execute_server_program`, and run programs as the server's user.
 */
const SAFE_CREATEROLE_MAJOR = 16;
/** How many times a rename is tried while the ended clients' backends go (20 ms apart). */
const RENAME_TRIES = 250;
/** The comment the front puts on the databases it makes for the control plane's. */
const LISTED_COMMENT = 'computesim: a database of the control plane';

/** Makes `role` where it is new: a login that is never a superuser. */
export async function makeRole(link: BackendLink, role: string, major: number): Promise<void> {
  const found = await adminQuery(
    link,
    `SELECT 1 FROM pg_roles WHERE rolname = ${quotedText(role)}`,
  );
  if (found.length > 0) return;
  const createRole = major >= SAFE_CREATEROLE_MAJOR ? ' CREATEROLE' : '';
  await adminQuery(link, `CREATE ROLE ${quotedName(role)} LOGIN CREATEDB${createRole}`);
  await adminQuery(link, `GRANT ${CLIENT_ROLE_GRANTS} TO ${quotedName(role)}`);
}

/** Makes the control plane's database `database` where it is new, owned by `owner`, and marked. */
export async function makeDatabase(
  link: BackendLink,
  database: string,
  owner: string,
): Promise<void> {
  if (await hasDatabase(link, database)) return;
  await adminQuery(link, `CREATE DATABASE ${quotedName(database)} OWNER ${quotedName(owner)}`);
  await adminQuery(
    link,
    `COMMENT ON DATABASE ${quotedName(database)} IS ${quotedText(LISTED_COMMENT)}`,
  );
}

/**
 * Renames `name` and gives it a new owner as `changes` say (the owner role made already); its
 * clients are ended first, as Postgres renames only a database nobody is connected to. Resolves to
 * whether the database was there.
 */
export async function updateDatabase(
  link: BackendLink,
  name: string,
  changes: { readonly name?: string; readonly ownerName?: string },
): Promise<boolean> {
  if (!(await hasDatabase(link, name))) return false;
  const owner = changes.ownerName;
  if (owner !== undefined)
    await adminQuery(link, `ALTER DATABASE ${quotedName(name)} OWNER TO ${quotedName(owner)}`);
  const renamed = changes.name;
  if (renamed === undefined || renamed === name) return true;
  await adminQuery(
    link,
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${quotedText(name)} AND pid <> pg_backend_pid()`,
  );
  // The ended clients' backends take a moment to go: until then Postgres refuses (55006).
  for (let tries = 1; ; tries += 1)
    try {
      await adminQuery(link, `ALTER DATABASE ${quotedName(name)} RENAME TO ${quotedName(renamed)}`);
      return true;
    } catch (error) {
      if (tries >= RENAME_TRIES || !String(error).includes('(55006)')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
}

/** Drops the control plane's databases that `chosen` picks; resolves to their names. */
export async function dropListedDatabases(
  link: BackendLink,
  chosen: (database: string) => boolean,
): Promise<string[]> {
  const rows = await adminQuery(
    link,
    `SELECT datname FROM pg_database WHERE shobj_description(oid, 'pg_database') = ${quotedText(LISTED_COMMENT)}`,
  );
  const dropped: string[] = [];
  for (const [database] of rows)
    if (database !== null && database !== undefined && chosen(database)) {
      await adminQuery(link, `DROP DATABASE IF EXISTS ${quotedName(database)} WITH (FORCE)`);
      dropped.push(database);
    }
  return dropped;
}

async function hasDatabase(link: BackendLink, database: string): Promise<boolean> {
  const found = await adminQuery(
    link,
    `SELECT 1 FROM pg_database WHERE datname = ${quotedText(database)}`,
  );
  return found.length > 0;
}
