/**
 * HTTP benchmark: requests/s of `computesim serve` for GET one operation (1,000 in the project) and
 * for a create/delete mix, over keep-alive connections, beside a bare node:http server answering
 * fixed JSON bodies of the same sizes in the same run (the floors: node:http alone). Server and
 * client run in separate processes. The mix is also run through `sim.request` alone (no HTTP), so
 * what the HTTP layer costs a request shows apart from the simulation's own work.
 * Target: the GET at ≥ 0.5 of the bare server.
 *
 * Run: npm run bench -- http
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { BENCH_KEY, sendRequest } from './support/sendRequest.js';
import { Simulation } from '../src/index.js';

const SECONDS = Number(process.env['HTTP_BENCH_SECONDS'] ?? 3);
const LANES = 32;
const TARGET_RATIO = 0.5;

interface Target {
  readonly child: ChildProcess;
  readonly port: number;
  readonly projectId: string;
  readonly operationId: string;
}

function startTarget(kind: 'bare' | 'sim'): Promise<Target> {
  const script = fileURLToPath(new URL('./support/httpTarget.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, kind], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /READY (\d+) (\S+) (\S+)/.exec(out);
      if (match !== null)
        resolve({ child, port: Number(match[1]), projectId: match[2]!, operationId: match[3]! });
    });
    child.on('exit', (code) => reject(new Error(`${kind} target exited with ${code}`)));
  });
}

/** Runs `one` on LANES keep-alive connections for SECONDS; returns requests/s and any bad status. */
async function load(
  name: string,
  one: (agent: Agent) => Promise<number>,
): Promise<{ name: string; perSecond: number; bad: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: LANES });
  const until = Date.now() + SECONDS * 1_000;
  let done = 0;
  let bad = 0;
  await Promise.all(
    Array.from({ length: LANES }, async () => {
      while (Date.now() < until) {
        const requests = await one(agent);
        if (requests < 0) bad++;
        else done += requests;
      }
    }),
  );
  agent.destroy();
  return { name, perSecond: done / SECONDS, bad };
}

/**
 * The create/delete mix through `sim.request` alone (no HTTP, the same key), for SECONDS: requests/s.
 * What the served mix costs beyond it is the HTTP layer's (the node adapter and the HTTP core).
 */
function inProcess(): number {
  const sim = new Simulation({ seed: 1 });
  sim.addApiKey({ kind: 'personal', key: BENCH_KEY });
  const options = { apiKey: BENCH_KEY };
  const pair = () => {
    const created = sim.request('POST', '/projects', { project: {} }, options);
    sim.request('DELETE', `/projects/${created.body.project.id as string}`, undefined, options);
  };
  for (let i = 0; i < 500; i++) pair();
  const until = Date.now() + SECONDS * 1_000;
  let done = 0;
  while (Date.now() < until) {
    for (let i = 0; i < 50; i++) pair();
    done += 100;
  }
  return done / SECONDS;
}

/** One create and one delete of a project; the number of requests, or -1 on an unexpected status. */
async function createDelete(agent: Agent, port: number): Promise<number> {
  const created = await sendRequest(agent, port, 'POST', '/api/v2/projects', '{"project":{}}');
  if (created.status !== 201) return -1;
  const id = (JSON.parse(created.text) as { project: { id: string } }).project.id;
  const deleted = await sendRequest(agent, port, 'DELETE', `/api/v2/projects/${id}`);
  return deleted.status === 200 ? 2 : -1;
}

/** Runs the HTTP benchmark; returns whether the target was met. */
export async function runHttpBenchmark(): Promise<boolean> {
  const bare = await startTarget('bare');
  const sim = await startTarget('sim');
  let served: Load[];
  try {
    const path = `/api/v2/projects/${sim.projectId}/operations/${sim.operationId}`;
    served = [
      await load('bare node:http, fixed JSON', async (agent) =>
        (await sendRequest(agent, bare.port, 'GET', '/')).status === 200 ? 1 : -1,
      ),
      await load('serve: GET one operation (1,000 in the project)', async (agent) =>
        (await sendRequest(agent, sim.port, 'GET', path)).status === 200 ? 1 : -1,
      ),
      await load('bare node:http, POST + DELETE (same sizes)', (agent) =>
        createDelete(agent, bare.port),
      ),
      await load('serve: create + delete a project', (agent) => createDelete(agent, sim.port)),
    ];
  } finally {
    bare.child.kill();
    sim.child.kill();
  }
  const [floor, get, mixFloor, mix] = served as [Load, Load, Load, Load];
  const alone = inProcess();
  const ratio = get.perSecond / floor.perSecond;
  console.log(
    `\nHTTP benchmark (${LANES} keep-alive connections, ${SECONDS} s each, server in its own process)`,
  );
  const line = (name: string, perSecond: number, bad = 0) =>
    console.log(
      `  ${name.padEnd(48)} ${Math.round(perSecond).toLocaleString('en-US').padStart(9)} req/s${bad > 0 ? `  (${bad} unexpected statuses)` : ''}`,
    );
  for (const row of served) line(row.name, row.perSecond, row.bad);
  line('sim.request alone: create + delete (no HTTP)', alone);
  const met = ratio >= TARGET_RATIO && get.bad === 0 && mix.bad === 0 && mixFloor.bad === 0;
  console.log(
    `  GET vs bare server: ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}) ${met ? 'met' : 'MISSED'}`,
  );
  // µs a request: the served mix less sim.request alone is the HTTP layer's share.
  const layer = 1e6 / mix.perSecond - 1e6 / alone;
  const floorCost = 1e6 / mixFloor.perSecond;
  console.log(
    `  create + delete vs bare server: ${(mix.perSecond / mixFloor.perSecond).toFixed(2)}; ` +
      `HTTP layer ${layer.toFixed(0)} µs a request, ${(layer / floorCost).toFixed(2)}× the bare ` +
      `server's ${floorCost.toFixed(0)} µs (the rest is sim.request's ${(1e6 / alone).toFixed(0)} µs)`,
  );
  return met;
}

type Load = Awaited<ReturnType<typeof load>>;
