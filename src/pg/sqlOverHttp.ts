/**
 * SQL over HTTP, as the real service answers `POST /sql` for its serverless driver: the connection
 * string in the `Neon-Connection-String` header names the role, its password, the compute (the
 * first label of the host, or `options=endpoint%3D…`) and the database; the body is one statement
 * `{query, params}` or a batch `{queries: […]}` run as one transaction (`Neon-Batch-Isolation-Level`,
 * `-Read-Only`, `-Deferrable`). Each request is a simulated client: it wakes an idle compute and
 * waits for it, counts as a session, and has a session of its own on the branch database. Rows are
 * answered as text (the driver parses them by type), as arrays with `Neon-Array-Mode: true`; an
 * error as status 400 with Postgres's fields, its SQLSTATE in `code`.
 */
import type { SqlError } from '../domain/sqlState.js';
import { backendMessage } from './backendMessages.js';
import type { HeldDatabase } from './branchDatabases.js';
import { endpointFromHost, endpointFromOptions, type NamedEndpoint } from './endpointRouting.js';
import { PG_ERRORS } from './pgErrors.js';
import { SessionState } from './sessionState.js';
import { startupSettings } from './startupSettings.js';

/** One statement of a request. */
interface Statement {
  readonly query: string;
  readonly params: readonly unknown[];
}

/** What an answer says: an HTTP status and a JSON body. */
export interface SqlAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** A client admitted by the front: its branch database and simulated connection, to give back. */
export interface SqlClient {
  readonly held: HeldDatabase;
  readonly session: SessionState;
  /** Gives the database and the connection back (after a rollback of anything left open). */
  done(): Promise<void>;
}

/** What the handler needs of its front. */
export interface SqlFront {
  /**
   * Connects as a client of `endpoint` with `user`/`password` to `database` (waiting for the
   * compute), holds the database with `session` on it; or the refusal.
   */
  admit(
    endpoint: NamedEndpoint,
    user: string,
    password: string,
    database: string,
    session: SessionState,
  ): Promise<SqlClient | SqlError>;
  /** A new session's process id. */
  processId(): number;
}

/** Answers one `POST /sql`. */
export async function answerSql(
  front: SqlFront,
  header: (name: string) => string | undefined,
  body: unknown,
): Promise<SqlAnswer> {
  const target = targetOf(header('neon-connection-string'));
  if (typeof target === 'string') return refusal('08P01', target);
  const request = statementsOf(body);
  if (typeof request === 'string') return refusal('08P01', request);
  const session = new SessionState(front.processId(), startupSettings(target.parameters));
  const client = await front.admit(
    target.endpoint,
    target.user,
    target.password,
    target.database,
    session,
  );
  if ('sqlstate' in client) return refusal(client.sqlstate, client.message);
  const arrayMode = header('neon-array-mode') === 'true';
  try {
    if (!request.batch) {
      const result = await run(client.held, request.statements[0] as Statement);
      return 'error' in result ? error(result.error) : ok(shape(result, arrayMode));
    }
    const begin = beginOf(header);
    const began = await run(client.held, { query: begin, params: [] });
    if ('error' in began) return error(began.error);
    const results: unknown[] = [];
    for (const statement of request.statements) {
      const result = await run(client.held, statement);
      if ('error' in result) {
        await run(client.held, { query: 'ROLLBACK', params: [] });
        return error(result.error);
      }
      results.push(shape(result, arrayMode));
    }
    const committed = await run(client.held, { query: 'COMMIT', params: [] });
    if ('error' in committed) return error(committed.error);
    return ok({ results });
  } catch (cause) {
    const failed = PG_ERRORS.unavailable(cause);
    return refusal(failed.sqlstate, failed.message);
  } finally {
    await client.done();
  }
}

/** Where a connection string points, or what is wrong with it. */
function targetOf(uri: string | undefined):
  | string
  | {
      readonly endpoint: NamedEndpoint;
      readonly user: string;
      readonly password: string;
      readonly database: string;
      readonly parameters: Readonly<Record<string, string>>;
    } {
  if (uri === undefined) return 'missing Neon-Connection-String header';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'Neon-Connection-String is not a connection string';
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    return 'Neon-Connection-String is not a postgres:// connection string';
  const user = decodeURIComponent(url.username);
  const parameters: Record<string, string> = { user };
  for (const [name, value] of url.searchParams)
    if (name === 'options' || name === 'application_name') parameters[name] = value;
  const endpoint =
    endpointFromOptions(url.searchParams.get('options') ?? undefined) ??
    endpointFromHost(url.hostname);
  if (endpoint === undefined) return PG_ERRORS.endpointNotSpecified.message;
  const database = decodeURIComponent(url.pathname.slice(1)) || user;
  return { endpoint, user, password: decodeURIComponent(url.password), database, parameters };
}

/** The statements of a body (a batch or one), or what is wrong with it. */
function statementsOf(
  body: unknown,
): { readonly statements: Statement[]; readonly batch: boolean } | string {
  const one = (value: unknown): Statement | undefined => {
    if (typeof value !== 'object' || value === null) return undefined;
    const { query, params } = value as { query?: unknown; params?: unknown };
    if (typeof query !== 'string') return undefined;
    if (params !== undefined && !Array.isArray(params)) return undefined;
    return { query, params: (params as unknown[] | undefined) ?? [] };
  };
  if (typeof body === 'object' && body !== null && 'queries' in body) {
    const queries = body.queries;
    if (!Array.isArray(queries)) return 'queries must be an array of {query, params}';
    const statements = queries.map(one);
    if (statements.some((s) => s === undefined))
      return 'each of queries must be {query: string, params?: array}';
    return { statements: statements as Statement[], batch: true };
  }
  const statement = one(body);
  return statement === undefined
    ? 'the body must be {query, params} or {queries}'
    : { statements: [statement], batch: false };
}

/** The BEGIN of a batch, with the isolation level and access mode its headers ask for. */
function beginOf(header: (name: string) => string | undefined): string {
  const levels: Readonly<Record<string, string>> = {
    Serializable: 'SERIALIZABLE',
    RepeatableRead: 'REPEATABLE READ',
    ReadCommitted: 'READ COMMITTED',
    ReadUncommitted: 'READ UNCOMMITTED',
  };
  const parts = ['BEGIN'];
  const level = levels[header('neon-batch-isolation-level') ?? ''];
  if (level !== undefined) parts.push(`ISOLATION LEVEL ${level}`);
  if (header('neon-batch-read-only') === 'true') parts.push('READ ONLY');
  if (header('neon-batch-deferrable') === 'true') parts.push('DEFERRABLE');
  return parts.join(' ');
}

interface Field {
  readonly name: string;
  readonly tableID: number;
  readonly columnID: number;
  readonly dataTypeID: number;
  readonly dataTypeSize: number;
  readonly dataTypeModifier: number;
  readonly format: 'text';
}

type Result =
  | {
      readonly fields: Field[];
      readonly rows: (string | null)[][];
      readonly command: string;
      readonly rowCount: number | null;
    }
  | { readonly error: Record<string, string> };

/** Runs one statement through the extended protocol, parameters as text. */
async function run(held: HeldDatabase, statement: Statement): Promise<Result> {
  const params = statement.params.map((value) =>
    value === null || value === undefined
      ? null
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value as string | number | boolean),
  );
  const bind: Buffer[] = [Buffer.from('\0\0'), int16(0), int16(params.length)];
  for (const param of params) {
    if (param === null) bind.push(int32(-1));
    else {
      const bytes = Buffer.from(param, 'utf8');
      bind.push(int32(bytes.length), bytes);
    }
  }
  bind.push(int16(0));
  const messages = Buffer.concat([
    backendMessage('P', Buffer.concat([Buffer.from(`\0${statement.query}\0`, 'utf8'), int16(0)])),
    backendMessage('B', Buffer.concat(bind)),
    backendMessage('D', Buffer.from('P\0')),
    backendMessage('E', Buffer.concat([Buffer.from('\0'), int32(0)])),
    backendMessage('S'),
  ]);
  return readResult(await held.reply(messages));
}

/** The fields, rows, command and error of an extended-protocol reply. */
function readResult(reply: Uint8Array): Result {
  const view = Buffer.from(reply.buffer, reply.byteOffset, reply.byteLength);
  let fields: Field[] = [];
  const rows: (string | null)[][] = [];
  let command = '';
  let rowCount: number | null = null;
  for (let offset = 0; offset + 5 <= view.length; offset += 1 + view.readUInt32BE(offset + 1)) {
    const type = String.fromCharCode(view[offset] as number);
    const body = view.subarray(offset + 5, offset + 1 + view.readUInt32BE(offset + 1));
    if (type === 'E') return { error: errorFields(body) };
    if (type === 'T') fields = rowDescription(body);
    else if (type === 'D') rows.push(dataRow(body));
    else if (type === 'C') {
      const tag = body.toString('utf8', 0, body.length - 1);
      command = tag.split(' ')[0] ?? '';
      const count = /\s(\d+)$/.exec(tag)?.[1];
      rowCount = count === undefined ? null : Number(count);
    }
  }
  return { fields, rows, command, rowCount };
}

function rowDescription(body: Buffer): Field[] {
  const fields: Field[] = [];
  let at = 2;
  for (let i = 0; i < body.readInt16BE(0); i++) {
    const end = body.indexOf(0, at);
    fields.push({
      name: body.toString('utf8', at, end),
      tableID: body.readUInt32BE(end + 1),
      columnID: body.readInt16BE(end + 5),
      dataTypeID: body.readUInt32BE(end + 7),
      dataTypeSize: body.readInt16BE(end + 11),
      dataTypeModifier: body.readInt32BE(end + 13),
      format: 'text',
    });
    at = end + 19;
  }
  return fields;
}

function dataRow(body: Buffer): (string | null)[] {
  const values: (string | null)[] = [];
  let at = 2;
  for (let i = 0; i < body.readInt16BE(0); i++) {
    const length = body.readInt32BE(at);
    at += 4;
    if (length < 0) values.push(null);
    else {
      values.push(body.toString('utf8', at, at + length));
      at += length;
    }
  }
  return values;
}

/** An ErrorResponse's fields, by the names the driver gives them. */
const ERROR_FIELDS: Readonly<Record<string, string>> = {
  S: 'severity',
  C: 'code',
  M: 'message',
  D: 'detail',
  H: 'hint',
  P: 'position',
  p: 'internalPosition',
  q: 'internalQuery',
  W: 'where',
  s: 'schema',
  t: 'table',
  c: 'column',
  d: 'dataType',
  n: 'constraint',
  F: 'file',
  L: 'line',
  R: 'routine',
};

function errorFields(body: Buffer): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let at = 0; at < body.length && body[at] !== 0;) {
    const end = body.indexOf(0, at + 1);
    const name = ERROR_FIELDS[String.fromCharCode(body[at] as number)];
    if (name !== undefined) fields[name] = body.toString('utf8', at + 1, end);
    at = end + 1;
  }
  return fields;
}

/** A result as the driver reads it: rows as arrays (array mode) or objects, values as text. */
function shape(result: Result, arrayMode: boolean): unknown {
  if ('error' in result) return result;
  const rows = arrayMode
    ? result.rows
    : result.rows.map((row) =>
        Object.fromEntries(row.map((v, i) => [result.fields[i]?.name ?? '', v])),
      );
  return {
    command: result.command,
    rowCount: result.rowCount,
    rows,
    fields: result.fields,
    rowAsArray: arrayMode,
  };
}

function ok(body: unknown): SqlAnswer {
  return { status: 200, body };
}

function error(fields: Record<string, string>): SqlAnswer {
  return { status: 400, body: { severity: 'ERROR', ...fields } };
}

function refusal(code: string, message: string): SqlAnswer {
  return { status: 400, body: { severity: 'ERROR', code, message } };
}

function int16(value: number): Buffer {
  const bytes = Buffer.alloc(2);
  bytes.writeInt16BE(value);
  return bytes;
}

function int32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeInt32BE(value);
  return bytes;
}
