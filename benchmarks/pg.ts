/**
 * Postgres front benchmark: statements/s of one `pg` client through `serve --pg-port` beside the same
 * statement run on an embedded Postgres (PGlite) directly, in the same run (target: the front at
 * ≥ 0.5 of direct); the time to connect to an active compute; and the process's peak RSS after 20
 * branches each had a client (databases open lazily, at most 4 at once).
 *
 * Run: npm run bench -- pg
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { SimServer } from '../src/http/simServer.js';
import { Simulation } from '../src/simulation/simulation.js';

const SECONDS = Number(process.env['PG_BENCH_SECONDS'] ?? 3);
const TARGET_RATIO = 0.5;
const BRANCHES = 20;
const KEY = 'bench-key';
const STATEMENT = 'select $1::int + 1 as n';

/** Runs `one` back to back for SECONDS; returns how many per second. */
async function rate(one: (i: number) => Promise<void>): Promise<number> {
  for (let i = 0; i < 50; i += 1) await one(i); // warm-up
  const started = process.hrtime.bigint();
  let count = 0;
  while (Number(process.hrtime.bigint() - started) / 1e9 < SECONDS) await one(count++);
  return count / (Number(process.hrtime.bigint() - started) / 1e9);
}

async function median(samples: number, one: () => Promise<number>): Promise<number> {
  const values: number[] = [];
  for (let i = 0; i < samples; i += 1) values.push(await one());
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)] as number;
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
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await response.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
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

    const connectMs = await median(15, async () => {
      const started = process.hrtime.bigint();
      const one = new pg.Client(uri);
      await one.connect();
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      await one.end();
      return ms;
    });

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

    console.log('\npg: the Postgres front (one client, statements back to back)');
    console.log(`  direct PGlite           ${directRate.toFixed(0).padStart(8)} statements/s`);
    console.log(
      `  through the front       ${frontRate.toFixed(0).padStart(8)} statements/s  ratio ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}) ${ratio >= TARGET_RATIO ? 'met' : 'MISSED'}`,
    );
    console.log(`  connect to an active compute: median ${connectMs.toFixed(1)} ms (15 samples)`);
    console.log(
      `  ${BRANCHES} branches, each with a client: peak RSS ${peakMb.toFixed(0)} MB (before them ${(rssBefore / 2 ** 20).toFixed(0)} MB; open instances now ${server.postgres?.databases.openCount})`,
    );
    return ratio >= TARGET_RATIO;
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}
