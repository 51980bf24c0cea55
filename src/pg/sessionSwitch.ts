/**
 * Hands a shared backend from one client's session to another's, as a pooler would between
 * transactions but keeping each session whole: the leaving session's settings, prepared statements
 * and temporary relations are read back (the relations renamed to names of its own), the backend is
 * reset, and the arriving session's are put back. A session whose client has gone has its
 * relations dropped instead.
 */
import type { SqlError } from '../domain/sqlState.js';
import { backendMessage, queryMessage } from './backendMessages.js';
import { errorOf, firstValue } from './backendReplies.js';
import type { SavedRelation, SavedStatement, SessionState } from './sessionState.js';

/** Runs protocol messages on the backend and resolves to the whole reply. */
export type RunOnBackend = (message: Uint8Array) => Promise<Uint8Array>;

/** Settings the front itself keeps (a replica's read-only default): never saved with a session. */
const FRONT_SETTINGS = ['default_transaction_read_only'];

const RELATION_KINDS: Readonly<Record<string, string>> = {
  r: 'TABLE',
  p: 'TABLE',
  i: 'INDEX',
  S: 'SEQUENCE',
  v: 'VIEW',
  m: 'MATERIALIZED VIEW',
};

const SNAPSHOT = `select json_build_object(
  's', (select coalesce(json_agg(json_build_array(name, setting)), '[]'::json) from pg_settings
        where source = 'session' and name not in (${FRONT_SETTINGS.map(literal).join(', ')})),
  'p', (select coalesce(json_agg(json_build_array(name, statement, from_sql, parameter_types::oid[])), '[]'::json)
        from pg_prepared_statements),
  't', (select coalesce(json_agg(json_build_array(relname, relkind)), '[]'::json) from pg_class
        where relnamespace = pg_my_temp_schema() and relkind in ('r', 'p', 'i', 'S', 'v', 'm')
        and relname !~ '__s[0-9]+$'))::text`;

const RESET = ['RESET ALL', 'DEALLOCATE ALL', 'CLOSE ALL', 'SELECT pg_advisory_unlock_all()'];

/**
 * Makes `to` the session on the backend (from `from`, if another had it), dropping the kept
 * relations of `gone` sessions on the way. Resolves to the first setting of `to`'s that the
 * backend refused, when `to` had never been on it (its startup settings), else `undefined`.
 */
export async function switchSession(
  run: RunOnBackend,
  from: SessionState | undefined,
  to: SessionState,
  gone: readonly SessionState[],
): Promise<SqlError | undefined> {
  const leaving: Uint8Array[] = [];
  if (from !== undefined) {
    const snapshot = JSON.parse(firstValue(await run(queryMessage(SNAPSHOT))) ?? '{}') as Snapshot;
    const relations = (snapshot.t ?? []).map(([name, kind]) => ({ name, kind }));
    if (from.ended)
      leaving.push(...relations.filter(isTable).map((r) => queryMessage(dropOf(r.name))));
    else {
      from.settings = new Map(snapshot.s ?? []);
      from.statements = (snapshot.p ?? []).map(([name, statement, fromSql, types]) => ({
        name,
        statement,
        fromSql,
        parameterTypes: types,
      }));
      from.relations = relations;
      leaving.push(
        ...relations.map((r) => queryMessage(renameOf(r, r.name, from.keptName(r.name)))),
      );
    }
  }
  for (const session of gone)
    for (const relation of session.relations.filter(isTable))
      leaving.push(queryMessage(dropOf(session.keptName(relation.name))));
  await run(Buffer.concat([...leaving, ...RESET.map((sql) => queryMessage(sql))]));
  const settings = [...to.settings].map(([name, value]) =>
    queryMessage(`select set_config(${literal(name)}, ${literal(value)}, false)`),
  );
  const refused = settings.length === 0 ? undefined : errorOf(await run(Buffer.concat(settings)));
  const arriving = [
    ...to.statements.map(prepareOf),
    ...to.relations.map((r) => queryMessage(renameOf(r, to.keptName(r.name), r.name))),
  ];
  if (arriving.length > 0) await run(Buffer.concat(arriving));
  const fresh = !to.entered;
  to.entered = true;
  return fresh ? refused : undefined;
}

interface Snapshot {
  readonly s?: [string, string][];
  readonly p?: [string, string, boolean, number[]][];
  readonly t?: [string, string][];
}

function isTable(relation: SavedRelation): boolean {
  return relation.kind === 'r' || relation.kind === 'p';
}

function renameOf(relation: SavedRelation, from: string, to: string): string {
  return `ALTER ${RELATION_KINDS[relation.kind] ?? 'TABLE'} IF EXISTS pg_temp.${identifier(from)} RENAME TO ${identifier(to)}`;
}

function dropOf(name: string): string {
  return `DROP TABLE IF EXISTS pg_temp.${identifier(name)} CASCADE`;
}

/** A statement put back: SQL `PREPARE` as written, a protocol one as a Parse (then Sync). */
function prepareOf(saved: SavedStatement): Uint8Array {
  if (saved.fromSql) return queryMessage(saved.statement);
  const types = Buffer.alloc(2 + 4 * saved.parameterTypes.length);
  types.writeInt16BE(saved.parameterTypes.length, 0);
  saved.parameterTypes.forEach((oid, i) => types.writeUInt32BE(oid, 2 + 4 * i));
  const parse = backendMessage(
    'P',
    Buffer.concat([Buffer.from(`${saved.name}\0${saved.statement}\0`, 'utf8'), types]),
  );
  return Buffer.concat([parse, backendMessage('S')]);
}

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

function identifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
