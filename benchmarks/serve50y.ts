/**
 * `serve`'s longest clock move: one compute with a cron workload every 15 minutes, advanced fifty
 * years by one `POST /_sim/advance` through the server's HTTP core (the sliced advance `serve` runs,
 * handing the event loop back between slices). Prints the wall time and events/s beside the same
 * fifty years run in process by `sim.advance`, against the target: the move finishes.
 *
 * Run: npm run bench -- serve-50y   (SERVE_YEARS shortens it)
 */
import { Simulation } from '../src/index.js';
import { SimServer } from '../src/http/simServer.js';
import { rate } from './support/measure.js';

const YEARS = Number(process.env['SERVE_YEARS'] ?? 50);
const KEY = 'bench-key';

/** One project whose compute a cron session wakes every 15 minutes. */
function cronSimulation(): Simulation {
  const sim = new Simulation({ seed: 1 });
  const created = sim.request('POST', '/projects', { project: {} });
  sim.addWorkload({
    kind: 'cron',
    endpointId: created.body.endpoints[0].id,
    every: '15m',
    session: { duration: '30s', cpu: 0.3 },
  });
  return sim;
}

/** Runs the benchmark; returns whether the served move finished. */
export async function runServe50yBenchmark(): Promise<boolean> {
  const by = `${YEARS * 365}d`;
  const direct = cronSimulation();
  const directStarted = process.hrtime.bigint();
  direct.advance(by, { stepLimit: Number.MAX_SAFE_INTEGER });
  const directSeconds = Number(process.hrtime.bigint() - directStarted) / 1e9;

  const sim = cronSimulation();
  const server = new SimServer(sim, {
    keys: [{ key: KEY, kind: 'personal' }],
    clock: { name: 'manual', rate: 0 },
  });
  const before = sim.log.length;
  const started = process.hrtime.bigint();
  const answer = await server.core.fetch(
    new Request('http://computesim.bench/api/v2/_sim/advance', {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ by }),
    }),
    { clientAddress: '127.0.0.1' },
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const events = sim.log.length - before;
  const finished = answer.status === 200;
  await server.close();
  console.log(`\nserve: one compute, cron every 15 min, advanced ${YEARS} years in one request`);
  console.log(
    `in process (sim.advance)              ${directSeconds.toFixed(1)} s, ${rate(direct.log.length / directSeconds)}`,
  );
  console.log(
    `through serve's HTTP core             ${seconds.toFixed(1)} s, ${rate(events / seconds)}, ` +
      `status ${answer.status} (target: finishes: ${finished ? 'met' : 'MISSED'})`,
  );
  return finished;
}

if (import.meta.url === `file://${process.argv[1]}`) await runServe50yBenchmark();
