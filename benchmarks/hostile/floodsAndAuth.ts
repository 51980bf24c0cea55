/**
 * Cases 8, 10, 11e and 11f: a flood of idle connections under `ulimit -n 1024`, a cleartext password
 * without TLS, a 200 MiB `COPY … FROM STDIN`, and a swarm of wrong passwords.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { percentiles } from '../../src/projection/percentiles.js';
import { describeError, rawConnect, type RawConnection } from '../support/rawPostgres.js';
import { errorText, secondsSince, sleep, tally, within } from './common.js';
import type { CaseOutcome } from './runCase.js';
import { connectClient, endClient, type Target } from './targets.js';

/** 8: 1,015 idle TCP connections to the Postgres port of a server under `ulimit -n 1024`. */
export async function descriptorFlood(target: Target): Promise<CaseOutcome> {
  const { server } = target;
  const wanted = 1_015;
  const connections: RawConnection[] = [];
  const failures: string[] = [];
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < wanted && performance.now() - started < 30_000) {
        next += 1;
        try {
          connections.push(await rawConnect(server.pgPort, 5_000));
        } catch (error) {
          failures.push(errorText(error));
        }
      }
    }),
  );
  await sleep(1_000);
  const open = connections.filter((connection) => connection.closed() === undefined).length;
  const refused = tally(
    connections
      .filter((connection) => connection.closed() !== undefined)
      .map((connection) => describeError(connection.error())),
  );
  const created = await server.call('POST', '/projects', { project: { name: 'during-flood' } });
  const listed = await server.call('GET', '/projects?limit=1');
  let login: string;
  try {
    const client = await connectClient(target.victim.config, {}, 10_000);
    login = 'logged in';
    await endClient(client);
  } catch (error) {
    login = errorText(error);
  }
  for (const connection of connections) connection.socket.destroy();
  const apiOk = created.status === 201 && listed.status === 200;
  return {
    outcome:
      `${connections.length} of ${wanted} connected (${failures.length} failed: ${tally(failures)}); ` +
      `after 1 s ${open} still open, the server closed the rest: ${refused}; a new pg client meanwhile: ${login}`,
    clientOk: true,
    data: {
      ok: apiOk,
      text: `during the flood POST /projects ${created.status}${created.status === 201 ? '' : ` ${created.text.slice(0, 120)}`}, GET /projects ${listed.status}`,
    },
  };
}

/** 10: a cleartext password naming the compute, over plain TCP. */
export async function cleartextWithoutTls(target: Target): Promise<CaseOutcome> {
  const { victim } = target;
  const { host, port, user, database } = victim.config;
  const client = new pg.Client({
    host,
    port,
    user,
    database,
    password: `endpoint=${victim.endpointId};${victim.password}`,
    connectionTimeoutMillis: 30_000,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await endClient(client);
    return { outcome: 'logged in (not refused)', clientOk: false };
  } catch (error) {
    const text = errorText(error);
    return {
      outcome: `refused: ${text}`,
      clientOk: text.includes('connection is insecure (try using `sslmode=require`)'),
    };
  }
}

/** 11e: a 200 MiB `COPY … FROM STDIN`. */
export async function largeCopyIn(target: Target): Promise<CaseOutcome> {
  const client = await connectClient(target.victim.config);
  await client.query('create table bulk (t text)');
  const line = `${'z'.repeat(1023)}\n`;
  const chunk = Buffer.from(line.repeat(1024));
  const chunks = 200;
  const started = performance.now();
  let outcome: string;
  let ok = true;
  try {
    await within(
      pipeline(
        Readable.from(
          (function* () {
            for (let i = 0; i < chunks; i += 1) yield chunk;
          })(),
        ),
        client.query(copyFrom('copy bulk from stdin')),
      ),
      120_000,
      'COPY',
    );
    const counted = await client.query<{ n: number }>('select count(*)::int as n from bulk');
    outcome = `accepted: ${counted.rows[0]?.n.toLocaleString('en-US')} rows (200 MiB) in ${secondsSince(started).toFixed(1)} s`;
  } catch (error) {
    outcome = `${errorText(error)} after ${secondsSince(started).toFixed(1)} s`;
    ok = !/no answer/.test(outcome);
  }
  await within(client.query('drop table if exists bulk'), 60_000, 'drop').catch(() => undefined);
  await endClient(client);
  return { outcome, clientOk: ok };
}

/** 11f: wrong passwords from 32 concurrent clients for 10 s. */
export async function passwordSwarm(target: Target): Promise<CaseOutcome> {
  const { victim } = target;
  const seconds = 10;
  const started = performance.now();
  const answers: string[] = [];
  const latencies: number[] = [];
  let attempts = 0;
  await Promise.all(
    Array.from({ length: 32 }, async (_, worker) => {
      for (let i = 0; i < 10_000 && secondsSince(started) < seconds; i += 1) {
        attempts += 1;
        const client = new pg.Client({
          ...victim.config,
          password: `wrong-${worker}-${i}`,
          connectionTimeoutMillis: 15_000,
        });
        client.on('error', () => undefined);
        const one = performance.now();
        try {
          await client.connect();
          answers.push('LOGGED IN');
          await endClient(client);
        } catch (error) {
          answers.push((error as { code?: string }).code ?? (error as Error).message);
        }
        latencies.push(performance.now() - one);
      }
    }),
  );
  const elapsed = secondsSince(started);
  const latency = percentiles(latencies);
  return {
    outcome:
      `${attempts} attempts in ${elapsed.toFixed(1)} s (${(attempts / elapsed).toFixed(1)}/s): ` +
      `${tally(answers)}; an attempt's answer p50 ${latency.p50.toFixed(0)} ms, max ${latency.max.toFixed(0)} ms`,
    clientOk: answers.every((answer) => answer === '28P01'),
  };
}
