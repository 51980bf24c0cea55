/**
 * HTTP benchmark: requests/s of `computesim serve` for GET one operation (1,000 in the project) and
 * for a create/delete mix, over keep-alive connections, beside a bare node:http server answering a
 * fixed JSON body in the same run (the floor). Server and client run in separate processes.
 * Target: the GET at ≥ 0.5 of the bare server.
 *
 * Run: npm run bench -- http
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';

const SECONDS = Number(process.env['HTTP_BENCH_SECONDS'] ?? 3);
const LANES = 32;
const TARGET_RATIO = 0.5;
const KEY = 'bench-key';

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

/** Sends one request; resolves to its status and body. */
function send(
  agent: Agent,
  port: number,
  method: string,
  path: string,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          authorization: `Bearer ${KEY}`,
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
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

/** Runs the HTTP benchmark; returns whether the target was met. */
export async function runHttpBenchmark(): Promise<boolean> {
  const bare = await startTarget('bare');
  const sim = await startTarget('sim');
  try {
    const path = `/api/v2/projects/${sim.projectId}/operations/${sim.operationId}`;
    const floor = await load('bare node:http, fixed JSON', async (agent) =>
      (await send(agent, bare.port, 'GET', '/')).status === 200 ? 1 : -1,
    );
    const get = await load('serve: GET one operation (1,000 in the project)', async (agent) =>
      (await send(agent, sim.port, 'GET', path)).status === 200 ? 1 : -1,
    );
    const mix = await load('serve: create + delete a project', async (agent) => {
      const created = await send(agent, sim.port, 'POST', '/api/v2/projects', '{"project":{}}');
      if (created.status !== 201) return -1;
      const id = (JSON.parse(created.text) as { project: { id: string } }).project.id;
      const deleted = await send(agent, sim.port, 'DELETE', `/api/v2/projects/${id}`);
      return deleted.status === 200 ? 2 : -1;
    });
    const ratio = get.perSecond / floor.perSecond;
    console.log(
      `\nHTTP benchmark (${LANES} keep-alive connections, ${SECONDS} s each, server in its own process)`,
    );
    for (const row of [floor, get, mix])
      console.log(
        `  ${row.name.padEnd(48)} ${Math.round(row.perSecond).toLocaleString('en-US').padStart(9)} req/s${row.bad > 0 ? `  (${row.bad} unexpected statuses)` : ''}`,
      );
    const met = ratio >= TARGET_RATIO && get.bad === 0 && mix.bad === 0;
    console.log(
      `  GET vs bare server: ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}) ${met ? 'met' : 'MISSED'}`,
    );
    return met;
  } finally {
    bare.child.kill();
    sim.child.kill();
  }
}
