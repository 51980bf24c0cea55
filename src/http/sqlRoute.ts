/**
 * `POST /sql` on serve's HTTP port: the serverless driver's SQL over HTTP, answered by the Postgres
 * front (so only with `--pg-port`). The body is read up to a bound and must be JSON; the answer is
 * JSON, a Postgres error as status 400 with its SQLSTATE in `code`. As the real proxy, a body over
 * 10 MiB is a 413 (the rest is not read), an answer past 10 MiB a 507. As the real proxy, `OPTIONS /sql` answers a browser's CORS preflight
 * and every answer allows any origin; another method is a 405.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PostgresFront } from '../pg/postgresFront.js';
import { methodRefusal, proxyError, SQL_ALLOW, SQL_PREFLIGHT_HEADERS } from '../pg/sqlOverHttp.js';

/** The largest request body taken (a batch of statements with their parameters). */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Answers a request for `/sql`. */
export async function answerSqlRequest(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  front: PostgresFront | undefined,
): Promise<void> {
  const method = incoming.method ?? 'GET';
  if (method !== 'POST') {
    incoming.resume(); // a body, if any, is not read
    if (method === 'OPTIONS') {
      outgoing.writeHead(200, { ...SQL_PREFLIGHT_HEADERS, 'content-length': 0 });
      outgoing.end();
      return;
    }
    const refused = methodRefusal(method);
    return send(outgoing, refused.status, refused.json, { allow: SQL_ALLOW });
  }
  if (front === undefined)
    return reply(outgoing, 404, {
      code: 'not_found',
      message: 'SQL over HTTP needs the Postgres front: start serve with --pg-port',
    });
  const text = await readBody(incoming);
  if (text === undefined) {
    // The rest of a body past the limit is not read: the connection closes after the answer.
    const tooLarge = proxyError(413, `request is too large (max is ${MAX_BODY_BYTES} bytes)`);
    outgoing.setHeader('connection', 'close');
    return send(outgoing, tooLarge.status, tooLarge.json);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return reply(outgoing, 400, { code: '08P01', message: 'the request body is not JSON' });
  }
  const header = (name: string) => {
    const value = incoming.headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  };
  const answer = await front.answerSql(header, body);
  send(outgoing, answer.status, answer.json);
}

/** The body as text, or `undefined` once it is (or says it will be) past the limit. */
function readBody(incoming: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    if (Number(incoming.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return resolve(undefined);
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      else {
        incoming.off('data', onData);
        chunks.length = 0;
        resolve(undefined);
      }
    };
    incoming.on('data', onData);
    incoming.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    incoming.on('error', () => resolve(undefined));
  });
}

function reply(outgoing: ServerResponse, status: number, body: unknown): void {
  send(outgoing, status, Buffer.from(JSON.stringify(body), 'utf8'));
}

/** Writes a JSON answer (its bytes as they are: the JSON of a result is written once). */
function send(
  outgoing: ServerResponse,
  status: number,
  json: Uint8Array,
  headers: Record<string, string> = {},
): void {
  if (outgoing.headersSent) return;
  outgoing.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': json.byteLength,
    'access-control-allow-origin': '*',
  });
  outgoing.end(json);
}
