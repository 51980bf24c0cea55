/**
 * One HTTP request as the benchmarks send it to a served simulation: over a keep-alive agent, with
 * the benchmarks' bearer key and a JSON body when there is one.
 */
import { type Agent, request } from 'node:http';

/** The key every benchmark server accepts. */
export const BENCH_KEY = 'bench-key';

/** Sends one request to `127.0.0.1:port`; resolves to its status and body text. */
export function sendRequest(
  agent: Agent,
  port: number,
  method: string,
  path: string,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          authorization: `Bearer ${BENCH_KEY}`,
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
        },
      },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, text }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
