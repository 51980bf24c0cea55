/**
 * Cases 7 and 11a to 11d, over `/sql`: results of millions of rows, a connection string that does not
 * decode, tens of thousands of parameters, and the wrong method.
 */
import { httpRequest } from '../support/serveChild.js';
import { secondsSince } from './common.js';
import type { CaseOutcome } from './runCase.js';
import type { Target } from './targets.js';

/** 7: `select generate_series(1, N)` over `/sql`. */
export async function sqlOverHttpSeries(target: Target, rowsWanted: number): Promise<CaseOutcome> {
  const { server, victim } = target;
  const started = performance.now();
  const answer = await httpRequest(server.httpPort, 'POST', '/sql', {
    headers: { 'neon-connection-string': victim.uri },
    body: JSON.stringify({ query: `select generate_series(1, ${rowsWanted})`, params: [] }),
    timeoutMs: 120_000,
    keepChars: 200,
  });
  return {
    outcome:
      `status ${answer.status}, body ${answer.bytes.toLocaleString('en-US')} bytes in ` +
      `${secondsSince(started).toFixed(1)} s: ${answer.text.slice(0, 110).replaceAll('\n', ' ')}`,
    clientOk: answer.status === 200 || answer.status === 507,
  };
}

/** 11a-d: `/sql` with a bad connection string, too many parameters, the wrong method. */
export async function sqlOverHttpSmall(
  target: Target,
  kind: 'percent' | 'params40k' | 'params70k' | 'get',
): Promise<CaseOutcome> {
  const { server, victim } = target;
  let answer;
  if (kind === 'get') {
    answer = await httpRequest(server.httpPort, 'GET', '/sql', { keepChars: 300 });
  } else {
    const count = kind === 'params40k' ? 40_000 : kind === 'params70k' ? 70_000 : 1;
    const uri =
      kind === 'percent'
        ? `postgresql://neondb_owner:%zz@127.0.0.1:${server.pgPort}/neondb?options=endpoint%3D${victim.endpointId}`
        : victim.uri;
    const query =
      count === 1
        ? 'select 1'
        : `select array_length(array[${Array.from({ length: count }, (_, i) => `$${i + 1}`).join(',')}]::text[], 1) as n`;
    answer = await httpRequest(server.httpPort, 'POST', '/sql', {
      headers: { 'neon-connection-string': uri },
      body: JSON.stringify({ query, params: Array.from({ length: count }, (_, i) => String(i)) }),
      timeoutMs: 60_000,
      keepChars: 300,
    });
  }
  const expected =
    kind === 'get' ? answer.status === 405 : answer.status >= 400 && answer.status < 500;
  return {
    outcome: `status ${answer.status}: ${answer.text.slice(0, 160).replaceAll('\n', ' ')}`,
    clientOk: expected,
  };
}
