/**
 * `POST /sql` on serve's HTTP port: the serverless driver's SQL over HTTP, answered by the Postgres
 * front (so only with `--pg-port`). The body is read up to a bound and must be JSON; the answer is
 * JSON, a Postgres error as status 400 with its SQLSTATE in `code`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PostgresFront } from '../pg/postgresFront.js';

/** The largest request body taken (a batch of statements with their parameters). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Whether a request is for SQL over HTTP. */
export function isSqlRequest(incoming: IncomingMessage): boolean {
  return incoming.method === 'POST' && (incoming.url ?? '').split('?')[0] === '/sql';
}

/** Answers a `POST /sql`. */
export async function answerSqlRequest(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  front: PostgresFront | undefined,
): Promise<void> {
  if (front === undefined)
    return reply(outgoing, 404, {
      code: 'not_found',
      message: 'SQL over HTTP needs the Postgres front: start serve with --pg-port',
    });
  const text = await readBody(incoming);
  if (text === undefined)
    return reply(outgoing, 413, {
      code: '54000',
      message: `the request body is over ${MAX_BODY_BYTES >> 20} MiB`,
    });
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
  reply(outgoing, answer.status, answer.body);
}

function readBody(incoming: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    incoming.on('end', () =>
      resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8')),
    );
    incoming.on('error', () => resolve(undefined));
  });
}

function reply(outgoing: ServerResponse, status: number, body: unknown): void {
  if (outgoing.headersSent) return;
  const text = JSON.stringify(body);
  outgoing.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  outgoing.end(text);
}
