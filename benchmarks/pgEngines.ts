/**
 * The two engines behind the Postgres front, side by side in one run (`bench -- pg` prints this
 * after the front's own figures): one client's statements/s; ten clients of one database
 * interleaving, against that (issue 51's target on the real engine: ≥ 0.8); and a cancel of one
 * client's long statement, seen by the others: a bystander's `select 1` p99 meanwhile (target
 * ≤ 20 ms), and whether a third session's temporary table and `application_name` are still there
 * after. The real engine is measured where a Postgres server's programs are found.
 */
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { SimServer } from '../src/http/simServer.js';
import type { PostgresEngine } from '../src/pg/postgresFront.js';
import { findPostgresBinaries } from '../src/pg/postgresBinaries.js';
import { cancelRequest } from '../src/pg/cancelKeys.js';
import { Simulation } from '../src/simulation/simulation.js';
import { apiCaller } from './support/apiCaller.js';

const SECONDS = Number(process.env['PG_BENCH_SECONDS'] ?? 3);
const KEY = 'bench-key';
const STATEMENT = 'select $1::int + 1 as n';
const CLIENTS = 10;
const INTERLEAVE_TARGET = 0.8;
const BYSTANDER_P99_TARGET_MS = 20;

/** What one engine measured. */
export interface EngineFigures {
  readonly engine: PostgresEngine;
  readonly oneClient: number;
  readonly interleaved: number;
  readonly bystanderP99Ms: number;
  readonly cancelMs: number;
  readonly othersKept: boolean;
}

async function interleavedRate(clients: readonly pg.Client[]): Promise<number> {
  for (const one of clients) await one.query(STATEMENT, [0]);
  let count = 0;
  const started = process.hrtime.bigint();
  const elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
  await Promise.all(
    clients.map(async (one) => {
      while (elapsed() < SECONDS) await one.query(STATEMENT, [count++]);
    }),
  );
  return count / elapsed();
}

/** Sends the front a CancelRequest for `client`'s statement, as drivers do. */
function cancelThroughFront(port: number, client: pg.Client): Promise<void> {
  const key = client as unknown as { processID: number; secretKey: number };
  const request = cancelRequest({ processId: key.processID, secret: key.secretKey });
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
  });
}

/** Measures `engine` on a fresh served simulation. */
async function measure(engine: PostgresEngine): Promise<EngineFigures> {
  const root = mkdtempSync(join(tmpdir(), 'computesim-pg-engines-'));
  const server = new SimServer(new Simulation({ seed: 1 }), {
    keys: [{ key: KEY, kind: 'personal' }],
    clock: { name: 'manual', rate: 0 },
  });
  try {
    const base = await server.listen(0);
    const address = await server.listenPostgres(0, '127.0.0.1', { root, engine });
    const call = apiCaller(base, KEY);
    const created = await call('POST', '/projects', { project: { name: 'engines' } });
    await call('POST', '/_sim/advance', { by: '10s' });
    const uri = created['connection_uris'][0].connection_uri as string;
    const clients = Array.from({ length: CLIENTS }, () => new pg.Client(uri));
    await Promise.all(clients.map((one) => one.connect()));
    try {
      const [first, sleeper, keeper, bystander] = clients as [
        pg.Client,
        pg.Client,
        pg.Client,
        pg.Client,
      ];
      let count = 0;
      const started = process.hrtime.bigint();
      const elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
      while (elapsed() < SECONDS) await first.query(STATEMENT, [count++]);
      const oneClient = count / elapsed();
      const interleaved = await interleavedRate(clients);

      await keeper.query("create temp table mine (x int); set application_name = 'keeper'");
      const latencies: number[] = [];
      let watching = true;
      const watch = (async () => {
        while (watching) {
          const at = process.hrtime.bigint();
          await bystander.query('select 1');
          latencies.push(Number(process.hrtime.bigint() - at) / 1e6);
        }
      })();
      const sleeping = sleeper.query('select pg_sleep(30)').catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const cancelAt = process.hrtime.bigint();
      await cancelThroughFront(address.port, sleeper);
      await sleeping;
      const cancelMs = Number(process.hrtime.bigint() - cancelAt) / 1e6;
      await new Promise((resolve) => setTimeout(resolve, 200));
      watching = false;
      await watch;
      const kept = await keeper
        .query('select current_setting($1) as name, (select count(*) from mine) as rows', [
          'application_name',
        ])
        .then((result) => result.rows[0]?.name === 'keeper')
        .catch(() => false);
      latencies.sort((a, b) => a - b);
      const p99 = latencies[Math.min(latencies.length - 1, Math.floor(0.99 * latencies.length))];
      return {
        engine,
        oneClient,
        interleaved,
        bystanderP99Ms: p99 ?? Number.NaN,
        cancelMs,
        othersKept: kept,
      };
    } finally {
      await Promise.all(clients.map((one) => one.end().catch(() => undefined)));
    }
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** The engines this machine has: PGlite always, a Postgres server where its programs are. */
function availableEngines(): PostgresEngine[] {
  try {
    findPostgresBinaries();
    return ['pglite', 'postgres'];
  } catch {
    return ['pglite'];
  }
}

/** Prints both engines' figures; returns whether the real engine met its targets (true without it). */
export async function runEngineComparison(): Promise<boolean> {
  const engines = availableEngines();
  const figures: EngineFigures[] = [];
  for (const engine of engines) figures.push(await measure(engine));
  console.log(
    `\npg engines: one client, ${CLIENTS} clients interleaving, and a cancel seen by the others`,
  );
  console.log(
    '  engine    one client/s  10 clients/s  ratio  bystander p99 during a cancel  cancel  others kept',
  );
  for (const f of figures)
    console.log(
      `  ${f.engine.padEnd(8)} ${f.oneClient.toFixed(0).padStart(13)} ${f.interleaved.toFixed(0).padStart(13)} ${(f.interleaved / f.oneClient).toFixed(2).padStart(6)} ${`${f.bystanderP99Ms.toFixed(1)} ms`.padStart(30)} ${`${f.cancelMs.toFixed(0)} ms`.padStart(7)}  ${f.othersKept ? 'yes' : 'no'}`,
    );
  const real = figures.find((f) => f.engine === 'postgres');
  if (real === undefined) {
    console.log(
      '  (no Postgres server here: apt-get install postgresql to measure the real engine)',
    );
    return true;
  }
  const ratio = real.interleaved / real.oneClient;
  const met =
    ratio >= INTERLEAVE_TARGET && real.bystanderP99Ms <= BYSTANDER_P99_TARGET_MS && real.othersKept;
  console.log(
    `  targets on postgres: ratio ≥ ${INTERLEAVE_TARGET}, bystander p99 ≤ ${BYSTANDER_P99_TARGET_MS} ms, others kept: ${met ? 'met' : 'MISSED'}`,
  );
  return met;
}
