/**
 * The names Postgres and the control plane accept for roles and databases: 1 to 63 bytes (UTF-8, the
 * identifier limit `NAMEDATALEN - 1`), no NUL, and none of the names the server reserves for itself.
 */

/** Longest identifier Postgres keeps, in bytes. */
const MAX_NAME_BYTES = 63;

/** Role names that Postgres reserves for role specifications or the platform keeps for itself. */
const RESERVED_ROLES: ReadonlySet<string> = new Set([
  'public',
  'none',
  'current_role',
  'current_user',
  'session_user',
  'cloud_admin',
  'neon_superuser',
]);

/** Databases every cluster already has. */
const RESERVED_DATABASES: ReadonlySet<string> = new Set(['postgres', 'template0', 'template1']);

/** Why `name` cannot name a role (a sentence for a 400), or `undefined`. */
export function roleNameProblem(name: string): string | undefined {
  const shape = identifierProblem('role', name);
  if (shape !== undefined) return shape;
  if (name.startsWith('pg_'))
    return `role name "${name}" is reserved: names starting with pg_ belong to the system`;
  if (RESERVED_ROLES.has(name.toLowerCase())) return `role name "${name}" is reserved`;
  return undefined;
}

/** Why `name` cannot name a database (a sentence for a 400), or `undefined`. */
export function databaseNameProblem(name: string): string | undefined {
  const shape = identifierProblem('database', name);
  if (shape !== undefined) return shape;
  if (RESERVED_DATABASES.has(name)) return `database name "${name}" is reserved`;
  return undefined;
}

function identifierProblem(kind: string, name: string): string | undefined {
  if (name.length === 0) return `${kind} name must not be empty`;
  const bytes = new TextEncoder().encode(name).length;
  if (bytes > MAX_NAME_BYTES)
    return `${kind} name must be at most ${MAX_NAME_BYTES} bytes, got ${bytes}`;
  if (name.includes('\u0000')) return `${kind} name must not contain a NUL character`;
  return undefined;
}
