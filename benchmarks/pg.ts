/**
 * Postgres front benchmark: statements/s of one `pg` client through `serve --pg-port` beside the same
 * statement run on an embedded Postgres (PGlite) directly, in the same run (target: the front at
 * ≥ 0.5 of direct), and through the serverless driver over HTTP (`neon()`, `POST /sql`) and over a
 * WebSocket (its `Pool`, `/v2`); connecting to an active compute, p50 and p99 (target: ≤ 50 ms); a cold start
 * as a client feels it at 60x (the simulated start, then the real open of the database); the API's
 * p99 while one client streams a 10,000,000-row result (target: ≤ 100 ms); and the process's peak
 * RSS after 20 branches each had a client (at most 4 databases open at once). Then both engines side
 * by side (`pgEngines.ts`): ten clients interleaving, and a cancel as the other sessions see it.
 *
 * Run: npm run bench -- pg
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { neon, neonConfig, Pool } from '@neondatabase/serverless';
import pg from 'pg';
import ws from 'ws';
import { to as copyTo } from 'pg-copy-streams';
import { SimServer } from '../src/http/simServer.js';
import { Simulation } from '../src/simulation/simulation.js';
import { runEngineComparison } from './pgEngines.js';
import { apiCaller } from './support/apiCaller.js';

const SECONDS = Number(process.env['PG_BENCH_SECONDS'] ?? 3);
const TARGET_RATIO = 0.5;
const BRANCHES = 20;
const KEY = 'bench-key';
const STATEMENT = 'select $1::int + 1 as n';
const WARM_CONNECT_TARGET_MS = 50;
const API_P99_TARGET_MS = 100;
const STREAMED_ROWS = 10_000_000;

/** Runs `one` back to back for SECONDS; returns how many per second. */
async function rate(one: (i: number) => Promise<void>): Promise<number> {
  for (let i = 0; i < 50; i += 1) await one(i); // warm-up
  const started = process.hrtime.bigint();
  let count = 0;
  while (Number(process.hrtime.bigint() - started) / 1e9 < SECONDS) await one(count++);
  return count / (Number(process.hrtime.bigint() - started) / 1e9);
}

/** The p50 and p99 of `samples` runs of `one` (each resolving to its own milliseconds). */
async function percentiles(
  samples: number,
  one: () => Promise<number>,
): Promise<{ p50: number; p99: number }> {
  const values: number[] = [];
  for (let i = 0; i < samples; i += 1) values.push(await one());
  values.sort((a, b) => a - b);
  const at = (q: number) =>
    values[Math.min(values.length - 1, Math.floor(q * values.length))] as number;
  return { p50: at(0.5), p99: at(0.99) };
}

/** Milliseconds `work` takes. */
async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Prints the benchmark; returns whether the ratio target was met. */
export async function runPgBenchmark(): Promise<boolean> {
  const root = mkdtempSync(join(tmpdir(), 'computesim-pg-bench-'));
  const server = new SimServer(new Simulation({ seed: 1 }), {
    keys: [{ key: KEY, kind: 'personal' }],
    clock: { name: 'manual', rate: 0 },
  });
  try {
    const base = await server.listen(0);
    await server.listenPostgres(0, '127.0.0.1', { root });
    const call = apiCaller(base, KEY);
    const advance = (by: string) => call('POST', '/_sim/advance', { by });
    const created = await call('POST', '/projects', { project: { name: 'bench' } });
    await advance('10s');
    const uri = created['connection_uris'][0].connection_uri as string;

    const direct = await PGlite.create(join(root, 'direct'));
    const directRate = await rate(async (i) => {
      await direct.query(STATEMENT, [i]);
    });
    await direct.close();
    const client = new pg.Client(uri);
    await client.connect();
    const frontRate = await rate(async (i) => {
      await client.query(STATEMENT, [i]);
    });
    await client.end();
    const ratio = frontRate / directRate;

    // The serverless driver, pointed at this server: over HTTP, and its Pool over a WebSocket.
    const endpoint = await call(
      'GET',
      `/projects/${created['project'].id as string}/endpoints/${created['endpoints'][0].id as string}`,
    );
    const url = new URL(uri);
    const neonUri = `postgresql://${url.username}:${url.password}@${endpoint['endpoint'].host as string}/neondb`;
    const origin = new URL(base).origin;
    neonConfig.fetchEndpoint = () => `${origin}/sql`;
    neonConfig.webSocketConstructor = ws;
    neonConfig.useSecureWebSocket = false;
    neonConfig.wsProxy = (host, port) => `${new URL(origin).host}/v2?address=${host}:${port}`;
    const sql = neon(neonUri);
    const httpRate = await rate(async (i) => {
      await sql.query(STATEMENT, [i]);
    });
    const pool = new Pool({ connectionString: neonUri });
    const pooled = await pool.connect();
    const wsRate = await rate(async (i) => {
      await pooled.query(STATEMENT, [i]);
    });
    pooled.release();
    await pool.end();

    const connect = await percentiles(50, async () => {
      const one = new pg.Client(uri);
      const ms = await timed(() => one.connect());
      await one.end();
      return ms;
    });

    // The API while one client reads a large result as fast as it can.
    const reader = new pg.Client(uri);
    await reader.connect();
    let streamedBytes = 0;
    const streaming = (async () => {
      const rows = reader.query(
        copyTo(
          `COPY (select g, 'row ' || g from generate_series(1, ${STREAMED_ROWS}) g) TO STDOUT`,
        ),
      );
      for await (const chunk of rows) streamedBytes += (chunk as Buffer).length;
    })();
    const api: number[] = [];
    let streamDone = false;
    void streaming.finally(() => (streamDone = true));
    while (!streamDone) {
      api.push(await timed(() => call('GET', '/projects?limit=1')));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await streaming;
    await reader.end();
    api.sort((a, b) => a - b);
    const apiP99 = api[Math.min(api.length - 1, Math.floor(0.99 * api.length))] as number;

    const projectId = created['project'].id as string;
    const rssBefore = process.memoryUsage().rss;
    for (let b = 0; b < BRANCHES; b += 1) {
      const branch = await call('POST', `/projects/${projectId}/branches`, {
        branch: { name: `b${b}` },
        endpoints: [{ type: 'read_write' }],
      });
      await advance('10s');
      const each = new pg.Client(branch['connection_uris'][0].connection_uri as string);
      await each.connect();
      await each.query('create table if not exists t (id int)');
      await each.query('insert into t values (1)');
      await each.end();
    }
    const peakMb = process.resourceUsage().maxRSS / 1024;
    const coldMs = await coldStartFelt(root);

    console.log('\npg: the Postgres front (one client, statements back to back)');
    console.log(`  direct PGlite           ${directRate.toFixed(0).padStart(8)} statements/s`);
    console.log(
      `  through the front       ${frontRate.toFixed(0).padStart(8)} statements/s  ratio ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}) ${ratio >= TARGET_RATIO ? 'met' : 'MISSED'}`,
    );
    console.log(
      `  serverless driver, HTTP  ${httpRate.toFixed(0).padStart(8)} statements/s (POST /sql: a request each is a session)`,
    );
    console.log(
      `  serverless driver, WebSocket ${wsRate.toFixed(0).padStart(4)} statements/s (one Pool client over /v2)`,
    );
    const warmMet = connect.p99 <= WARM_CONNECT_TARGET_MS;
    const apiMet = apiP99 <= API_P99_TARGET_MS;
    console.log(
      `  connect to an active compute: p50 ${connect.p50.toFixed(1)} ms, p99 ${connect.p99.toFixed(1)} ms (50 samples; target ≤ ${WARM_CONNECT_TARGET_MS} ms) ${warmMet ? 'met' : 'MISSED'}`,
    );
    console.log(
      `  a cold start felt at 60x (simulated start, then the database opens): ${coldMs.toFixed(0)} ms`,
    );
    console.log(
      `  API p99 while ${STREAMED_ROWS.toLocaleString('en-US')} rows (${(streamedBytes / 2 ** 20).toFixed(0)} MiB) stream to one client: ${apiP99.toFixed(1)} ms over ${api.length} requests (target ≤ ${API_P99_TARGET_MS} ms) ${apiMet ? 'met' : 'MISSED'}`,
    );
    console.log(
      `  ${BRANCHES} branches, each with a client: peak RSS ${peakMb.toFixed(0)} MB (before them ${(rssBefore / 2 ** 20).toFixed(0)} MB; open instances now ${server.postgres?.databases.openCount})`,
    );
    const enginesMet = await runEngineComparison();
    return ratio >= TARGET_RATIO && warmMet && apiMet && enginesMet;
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** How long a client waits to connect to an idle compute on a server whose clock runs at 60x. */
async function coldStartFelt(root: string): Promise<number> {
  const server = new SimServer(new Simulation({ seed: 2 }), {
    keys: [{ key: KEY, kind: 'personal' }],
    clock: { name: '60x', rate: 60 },
  });
  try {
    const base = await server.listen(0);
    await server.listenPostgres(0, '127.0.0.1', { root: join(root, 'cold') });
    const call = apiCaller(base, KEY);
    const created = await call('POST', '/projects', { project: { name: 'cold' } });
    const uri = created['connection_uris'][0].connection_uri as string;
    await call('POST', '/_sim/advance', { by: '10m' }); // started, then scaled to zero
    const client = new pg.Client(uri);
    const ms = await timed(() => client.connect());
    await client.end();
    return ms;
  } finally {
    await server.close();
  }
}
