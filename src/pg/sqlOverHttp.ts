/**
 * SQL over HTTP, as the real service answers `POST /sql` for its serverless driver: the connection
 * string in the `Neon-Connection-String` header names the role, its password, the compute (the
 * first label of the host, or `options=endpoint%3D…`) and the database; the body is one statement
 * `{query, params}` or a batch `{queries: […]}` run as one transaction (`Neon-Batch-Isolation-Level`,
 * `-Read-Only`, `-Deferrable`). Each request is a simulated client: it wakes an idle compute and
 * waits for it, counts as a session, and has a session of its own on the branch database. Rows are
 * answered as text (the driver parses them by type), as arrays with `Neon-Array-Mode: true`; an
 * error as status 400 with Postgres's fields, its SQLSTATE in `code`.
 *
 * The real proxy's limits hold: an answer whose JSON is past 10 MiB when another row comes is
 * refused with status 507 and the proxy's body (`response is too large (max is 10485760 bytes)`),
 * the statement abandoned and rolled back (see `sqlOverHttpReply.ts`: the result streams, so its size
 * costs neither memory nor main-thread time); a statement can have at most 32,767 parameters.
 */
import type { SqlError } from '../domain/sqlState.js';
import { PROXY_ERROR } from './pgErrors.js';
import type { HeldDatabase } from './branchDatabases.js';
import { endpointFromHost, endpointFromOptions, type NamedEndpoint } from './endpointRouting.js';
import { percentDecodedBytes, percentDecodedText } from './percentDecoding.js';
import { PG_ERRORS } from './pgErrors.js';
import { SessionState } from './sessionState.js';
import { JsonWriter } from './sqlOverHttpJson.js';
import { RESPONSE_TOO_LARGE_MESSAGE } from './sqlOverHttpReply.js';
import { runStatement, type RunOutcome, type Statement } from './sqlOverHttpRun.js';
import { startupSettings } from './startupSettings.js';

/** What an answer says: an HTTP status and its JSON body, as bytes. */
export interface SqlAnswer {
  readonly status: number;
  readonly json: Uint8Array;
}

/** The methods `/sql` answers. */
export const SQL_ALLOW = 'OPTIONS, POST';

/** The headers of the real proxy's answer (200, no body) to a browser's CORS preflight of `/sql`. */
export const SQL_PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  allow: SQL_ALLOW,
  'access-control-allow-origin': '*',
  'access-control-allow-headers':
    'Authorization, Neon-Connection-String, Neon-Raw-Text-Output, Neon-Array-Mode, Neon-Pool-Opt-In, Neon-Batch-Read-Only, Neon-Batch-Isolation-Level',
  'access-control-max-age': '86400',
};

/**
 * The answer to `/sql` asked with a method other than POST or OPTIONS: a 405 (with `Allow:
 * {@link SQL_ALLOW}`) that says so.
 */
export function methodRefusal(method: string): SqlAnswer {
  return answer(405, {
    code: 'method_not_allowed',
    message: `method ${method} is not allowed on /sql: SQL over HTTP is POST /sql`,
  });
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
  if ('sqlstate' in client)
    return client.sqlstate === PROXY_ERROR
      ? proxyError(400, client.message)
      : refusal(client.sqlstate, client.message);
  const arrayMode = header('neon-array-mode') === 'true';
  const held = client.held;
  // The front's own statements (the batch's transaction): their rows are nobody's.
  const own = (query: string) => runStatement(held, { query, params: [] }, new JsonWriter(), false);
  try {
    const out = new JsonWriter();
    if (!request.batch) {
      const outcome = await runStatement(held, request.statements[0] as Statement, out, arrayMode);
      return outcome.kind === 'done' ? ok(out) : failed(outcome);
    }
    const began = await own(beginOf(header));
    if (began.kind !== 'done') return failed(began);
    out.write('{"results":[');
    for (const [index, statement] of request.statements.entries()) {
      if (index > 0) out.write(',');
      const outcome = await runStatement(held, statement, out, arrayMode);
      // Past the limit, the statement was rolled back with its transaction already.
      if (outcome.kind === 'error') await own('ROLLBACK');
      if (outcome.kind !== 'done') return failed(outcome);
    }
    const committed = await own('COMMIT');
    if (committed.kind !== 'done') return failed(committed);
    out.write(']}');
    return ok(out);
  } catch (cause) {
    const unavailable = PG_ERRORS.unavailable(cause);
    return refusal(unavailable.sqlstate, unavailable.message);
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
  // As the proxy: a malformed escape is kept as it is; a name that is not UTF-8 is refused (the
  // proxy words it so for the database too).
  const decodedDatabase = percentDecodedText(url.pathname.slice(1).split('/')[0] ?? '');
  if ('invalid' in decodedDatabase) return `invalid username: ${decodedDatabase.invalid}`;
  const decodedUser = percentDecodedText(url.username);
  if ('invalid' in decodedUser) return `invalid username: ${decodedUser.invalid}`;
  const user = decodedUser.text;
  const parameters: Record<string, string> = { user };
  for (const [name, value] of url.searchParams)
    if (name === 'options' || name === 'application_name') parameters[name] = value;
  const endpoint =
    endpointFromOptions(url.searchParams.get('options') ?? undefined) ??
    endpointFromHost(url.hostname);
  if (endpoint === undefined) return PG_ERRORS.endpointNotSpecified.message;
  const database = decodedDatabase.text || user;
  // A password is bytes to the proxy (never refused); bytes that are not UTF-8 match no password.
  const password = percentDecodedBytes(url.password).toString('utf8');
  return { endpoint, user, password, database, parameters };
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

/** A successful answer: the JSON written. */
function ok(out: JsonWriter): SqlAnswer {
  return { status: 200, json: out.bytes() };
}

/** A statement's failure: Postgres's error (400), or the proxy's 507 for an answer too large. */
function failed(outcome: Exclude<RunOutcome, { kind: 'done' }>): SqlAnswer {
  if (outcome.kind === 'error') return answer(400, { severity: 'ERROR', ...outcome.fields });
  return proxyError(507, RESPONSE_TOO_LARGE_MESSAGE);
}

/**
 * An error of the proxy's own (not Postgres's), with its body: every field of a Postgres error,
 * most of them empty.
 */
export function proxyError(status: number, message: string): SqlAnswer {
  return answer(status, {
    message,
    code: '',
    detail: null,
    hint: null,
    position: null,
    internalPosition: null,
    internalQuery: null,
    severity: '',
    where: null,
    table: null,
    column: null,
    schema: null,
    dataType: null,
    constraint: null,
    file: null,
    line: null,
    routine: null,
  });
}

function refusal(code: string, message: string): SqlAnswer {
  return answer(400, { severity: 'ERROR', code, message });
}

function answer(status: number, body: unknown): SqlAnswer {
  return { status, json: Buffer.from(JSON.stringify(body), 'utf8') };
}
