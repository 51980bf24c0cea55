/**
 * Compares the served create/delete mix across checkouts (git worktrees) in alternating rounds: a
 * fixed number of requests per run, the server's CPU time per request read from /proc (steadier
 * than req/s on a shared machine), medians with their spread, and ratios to the first checkout.
 *
 * Run: node --import tsx benchmarks/compareServed.ts /work/wt-base /work/wt-http [--rounds 6]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { median } from './support/measure.js';
import { sendRequest } from './support/sendRequest.js';

const PAIRS = 4_000;
const WARM_PAIRS = 2_000;
const LANES = 32;
/** µs per clock tick of /proc/<pid>/stat (USER_HZ is 100 on Linux). */
const TICK_US = 10_000;

interface Run {
  readonly cpuUsPerRequest: number;
  readonly perSecond: number;
}

/** User + system CPU time of process `pid`, in µs. */
function cpuOf(pid: number): number {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
}

/** One run: `checkout`'s benchmark server, warmed up, then PAIRS creates and deletes. */
async function runOnce(checkout: string): Promise<Run> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', `${checkout}/benchmarks/support/httpTarget.ts`, 'sim'],
    { cwd: checkout, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /READY (\d+)/.exec(out);
      if (match !== null) resolve(Number(match[1]));
    });
  });
  const agent = new Agent({ keepAlive: true, maxSockets: LANES });
  const send = (method: string, path: string, body?: string) =>
    sendRequest(agent, port, method, path, body);
  const pairs = async (count: number) => {
    let left = count;
    await Promise.all(
      Array.from({ length: LANES }, async () => {
        while (left-- > 0) {
          const created = await send('POST', '/api/v2/projects', '{"project":{}}');
          if (created.status !== 201) throw new Error(`create answered ${created.status}`);
          const id = (JSON.parse(created.text) as { project: { id: string } }).project.id;
          const deleted = await send('DELETE', `/api/v2/projects/${id}`);
          if (deleted.status !== 200) throw new Error(`delete answered ${deleted.status}`);
        }
      }),
    );
  };
  try {
    await pairs(WARM_PAIRS);
    const pid = child.pid as number;
    const cpu = cpuOf(pid);
    const started = performance.now();
    await pairs(PAIRS);
    const seconds = (performance.now() - started) / 1_000;
    return { cpuUsPerRequest: (cpuOf(pid) - cpu) / (2 * PAIRS), perSecond: (2 * PAIRS) / seconds };
  } finally {
    agent.destroy();
    child.kill();
  }
}

function spread(values: readonly number[], digits: number): string {
  return `${median(values).toFixed(digits)} [${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}]`;
}

const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt === -1 ? 6 : Number(args[roundsAt + 1]);
const checkouts = args.filter((arg, i) => arg !== '--rounds' && i !== roundsAt + 1);
if (checkouts.length === 0 || !(rounds > 0)) {
  console.error('compareServed: give one or more checkouts (and --rounds N)');
  process.exit(2);
}
const runs = checkouts.map((): Run[] => []);
for (let round = 0; round < rounds; round++)
  for (const [i, checkout] of checkouts.entries()) runs[i]?.push(await runOnce(checkout));
console.log(
  `Served create + delete: ${rounds} alternating rounds of ${2 * PAIRS} requests after ${2 * WARM_PAIRS}`,
);
for (const [i, checkout] of checkouts.entries()) {
  const own = runs[i] as Run[];
  const first = runs[0] as Run[];
  const ratio = own.map((run, r) => run.cpuUsPerRequest / (first[r] as Run).cpuUsPerRequest);
  console.log(
    `  ${checkout.padEnd(24)} ${spread(
      own.map((run) => run.perSecond),
      0,
    )} req/s, ${spread(
      own.map((run) => run.cpuUsPerRequest),
      1,
    )} server CPU µs a request` + (i === 0 ? '' : `, ×${spread(ratio, 3)} the first's CPU`),
  );
}
