/**
 * Scale-out benchmark: the speed-up of 2 worker threads over 1 on the same sweep grid (the
 * suspend-timeout study's 6 points × 2 seeds, each for SWEEP_DAYS simulated days; target ≥ 1.8 on
 * a 2-core machine), and the 30-day office fleet (scenarios/office-fleet.ts: 1,000 projects, each
 * in its own simulation) on 2 threads beside 1. Results are checked equal.
 *
 * SWEEP_DAYS defaults to 30: a month is what a capacity study runs, and shorter runs measure mostly a
 * thread's fixed costs (starting, then V8 optimising the simulation's code anew in every thread):
 * 12 runs of 2 days are about 2.5 s of work, and at 14 days the grid got 1.3-1.5× where at 30 it gets
 * 1.6-1.8× on the same code. Running from the sources, the threads' program is compiled once per
 * process before the timed runs and timed on its own line.
 *
 * This host is a 2-vCPU VM whose neighbours share its memory and caches: one pair of runs of the
 * same code has given anything from 1.44× to 1.92×. So the grid runs in SWEEP_ROUNDS rounds (default
 * 3), 1 and 2 threads in alternating order, each round after measuring the host's own ceiling once
 * (a kernel of random updates over 64 MB, and one of pure arithmetic, alone and two at once, best
 * of 2); the
 * verdict takes the median round. Each run prints the cores it kept busy: one thread alone keeps more
 * than one (V8's compiler and garbage collector work on the idle core), which bounds what a second
 * thread can add; and, where /proc/stat tells, whether other processes took CPU meanwhile.
 *
 * Run: npm run bench -- sweep   (FLEET_PROJECTS / FLEET_DAYS / SWEEP_DAYS / SWEEP_ROUNDS /
 * FLEET_ROUNDS shrink it for a quick look)
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileUrl } from '../src/definitions/loadDefinition.js';
import { runFleetFile, sweepStudyFile } from '../src/entries/studies.js';
import { cellProgram } from '../src/study/cellProgram.js';
import { CellThreads } from '../src/study/cellThreads.js';
import type { FleetResult } from '../src/study/fleetRun.js';
import type { SweepResult } from '../src/study/sweepResult.js';
import { hostScaling, type HostScaling } from './support/hostScaling.js';
import { median, wholeFromEnv } from './support/measure.js';

const PROJECTS = Number(process.env['FLEET_PROJECTS'] ?? 1_000);
const DAYS = Number(process.env['FLEET_DAYS'] ?? 30);
const SWEEP_DAYS = Number(process.env['SWEEP_DAYS'] ?? 30);
/** Rounds of the grid on 1 and 2 threads (the verdict takes their median). */
const SWEEP_ROUNDS = wholeFromEnv('SWEEP_ROUNDS', 3);
const FLEET_ROUNDS = wholeFromEnv('FLEET_ROUNDS', 1);
const TARGET_SPEED_UP = 1.8;
const TINY = 'test/fixtures/tinyFleet.ts';

interface Timed<T> {
  readonly seconds: number;
  readonly result: T;
  /** CPU seconds this process used. */
  readonly cpu: number;
  /** CPU seconds the machine's other processes used meanwhile (`undefined` without /proc/stat). */
  readonly others: number | undefined;
}

/** CPU seconds every process of the machine has used so far, from /proc/stat (Linux). */
function machineCpu(): number | undefined {
  if (!existsSync('/proc/stat')) return undefined;
  const [, ...fields] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').split(/\s+/);
  const [user, nice, system, , , irq, softirq] = fields.map(Number);
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0)) / 100;
}

async function timed<T>(work: () => Promise<T>): Promise<Timed<T>> {
  const machine = machineCpu();
  const usage = process.cpuUsage();
  const started = process.hrtime.bigint();
  const result = await work();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(usage);
  const cpu = (used.user + used.system) / 1e6;
  const after = machineCpu();
  const others =
    machine === undefined || after === undefined ? undefined : Math.max(0, after - machine - cpu);
  return { seconds, result, cpu, others };
}

function verdict(ratio: number): string {
  return `${ratio.toFixed(2)}×  (target ≥ ${TARGET_SPEED_UP}: ${ratio >= TARGET_SPEED_UP ? 'met' : 'MISSED'})`;
}

/** Seconds to compile the threads' program for `file` (once per process and file, from the sources). */
async function compile(file: string): Promise<number> {
  return (await timed(() => cellProgram([fileUrl(file)]))).seconds;
}

/** Seconds to start `count` threads and have each run a trivial cell (the fixed cost of a run). */
async function startUp(count: number): Promise<number> {
  const url = fileUrl(TINY);
  const { seconds } = await timed(async () => {
    const pool = new CellThreads(count, [url]);
    const cells = Array.from({ length: count }, (_, i) => ({ from: i, to: i + 1 }));
    await Promise.all(
      cells.map((range) => pool.run({ kind: 'fleet', url, duration: '1m', ...range })),
    );
    await pool.close();
  });
  return seconds;
}

/** One round: the host's kernels, then the same work on 1 thread and on 2, in the order given. */
interface Round<T> {
  readonly host: HostScaling;
  readonly one: Timed<T>;
  readonly two: Timed<T>;
  readonly ratio: number;
  readonly same: boolean;
}

/**
 * Runs `work` on 1 and on 2 threads, `rounds` times, alternating which goes first (1 then 2, then 2
 * then 1, …) so a drift of the host's load weighs on both alike; each round starts by measuring the
 * host's kernels once.
 */
async function rounds<T>(
  count: number,
  work: (threads: number) => Promise<T>,
): Promise<Round<T>[]> {
  const done: Round<T>[] = [];
  for (let round = 0; round < count; round++) {
    const host = await hostScaling(2);
    const first = round % 2 === 0 ? 1 : 2;
    const a = await timed(() => work(first));
    const b = await timed(() => work(3 - first));
    const [one, two] = first === 1 ? [a, b] : [b, a];
    const same = JSON.stringify(one.result) === JSON.stringify(two.result);
    done.push({ host, one, two, ratio: one.seconds / two.seconds, same });
  }
  return done;
}

/** A line per round: both runs (with the cores they kept busy), their ratio, the host's kernels. */
function printRounds(runs: readonly Round<unknown>[]): void {
  console.log(
    'round  1 thread                 2 threads                speed-up  ' +
      'host: compute-bound  memory-bound',
  );
  runs.forEach((run, i) => {
    const cell = (t: Timed<unknown>) =>
      `${t.seconds.toFixed(1)} s, ${(t.cpu / t.seconds).toFixed(2)} cores`.padEnd(25);
    const noisy = [run.one, run.two].some(
      (t) => t.others !== undefined && t.others > 0.05 * t.seconds,
    )
      ? '  (other processes took CPU meanwhile)'
      : '';
    console.log(
      `${String(i + 1).padEnd(7)}${cell(run.one)}${cell(run.two)}${run.ratio.toFixed(2).padStart(7)}×  ` +
        `${run.host.computeBound.speedUp.toFixed(2).padStart(17)}×  ` +
        `${run.host.memoryBound.speedUp.toFixed(2).padStart(11)}×${noisy}`,
    );
  });
  const ratios = runs.map((run) => run.ratio);
  const compute = runs.map((run) => run.host.computeBound.speedUp);
  const span = (values: readonly number[]) =>
    values.length === 1
      ? `${(values[0] as number).toFixed(2)}×`
      : `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}×`;
  const label = runs.length === 1 ? 'speed-up' : `speed-up, median of ${runs.length}`;
  console.log(
    `${label.padEnd(37)}${verdict(median(ratios))}; ` +
      (runs.length === 1 ? '' : `rounds ${span(ratios)}, `) +
      `the host's compute-bound kernel ${span(compute)}`,
  );
  const busyOne = median(runs.map((run) => run.one.cpu / run.one.seconds));
  console.log(
    `bound from 1 thread's busy cores     at most ${(2 / busyOne).toFixed(2)}× on 2 cores, with 1 ` +
      `thread keeping ${busyOne.toFixed(2)} busy (V8's compiler and collector use the idle core)`,
  );
  console.log(
    `results identical                    ${runs.every((run) => run.same) ? 'yes' : 'NO'}`,
  );
}

/** Runs the scale-out benchmark; returns whether every target was met. */
export async function runSweepBenchmark(): Promise<boolean> {
  const study = 'scenarios/suspend-timeout-study.ts';
  const fleetFile = 'scenarios/office-fleet.ts';
  const compiled = [await compile(TINY), await compile(study), await compile(fleetFile)];
  const startUpOne = await startUp(1);
  const startUpTwo = await startUp(2);
  console.log(
    `\nThreads' program compiled from the sources, once per process and definition file (before ` +
      `the timed runs, so in none of them): ${compiled.map((c) => c.toFixed(2)).join(' s, ')} s`,
  );
  console.log(
    `Thread start-up (load the program, run a trivial cell): 1 thread ${startUpOne.toFixed(2)} s, ` +
      `2 threads ${startUpTwo.toFixed(2)} s (paid in every figure below)`,
  );
  console.log(
    `Host kernels, 1 vs 2 threads: random updates over 64 MB (memory-bound, ~2 s) and pure ` +
      `arithmetic (compute-bound); a simulation whose data outgrows a core's own cache meets the ` +
      `first ceiling, not the second`,
  );

  const options = { seeds: [1, 2], duration: `${SWEEP_DAYS}d` };
  const sweeps = await rounds(SWEEP_ROUNDS, (workers) =>
    sweepStudyFile(study, { ...options, workers }),
  );
  const runs = (sweeps[0] as Round<SweepResult>).one.result;
  console.log(
    `\nSweep: ${study}, ${runs.points.length * runs.seeds.length} runs of ${SWEEP_DAYS} ` +
      `simulated days, ${SWEEP_ROUNDS} rounds of 1 and 2 worker threads`,
  );
  printRounds(sweeps);

  const fleets = await rounds(FLEET_ROUNDS, (threads) =>
    runFleetFile(fleetFile, { duration: `${DAYS}d`, threads }),
  );
  console.log(
    `\nFleet: ${PROJECTS} projects, ${DAYS} simulated days, one simulation per project, ` +
      `${FLEET_ROUNDS} round(s) of 1 and 2 threads`,
  );
  printRounds(fleets);
  const best = Math.min(...fleets.map((run) => run.two.seconds));
  const { metrics, percentileRelativeError } = (fleets[0] as Round<FleetResult>).two.result;
  console.log(
    `fleet                                ${metrics.sessions.toLocaleString('en-US')} sessions, ` +
      `${metrics.cuHours.toFixed(0)} CU-hours, ${metrics.starts.toLocaleString('en-US')} starts, ` +
      `p95 cold-start wait ${metrics.coldStartWaitMs.p95} ms (≤ ${(percentileRelativeError * 100).toFixed(2)}% high); ` +
      `${Math.round((PROJECTS * DAYS * 86_400) / best).toLocaleString('en-US')} project-seconds/s on 2 threads`,
  );
  const met = (all: readonly Round<unknown>[]) =>
    median(all.map((run) => run.ratio)) >= TARGET_SPEED_UP && all.every((run) => run.same);
  return met(sweeps) && met(fleets);
}

if (import.meta.url === `file://${process.argv[1]}`) await runSweepBenchmark();
