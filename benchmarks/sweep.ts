/**
 * Scale-out benchmark: the speed-up of 2 worker threads over 1 on the same sweep grid (the
 * suspend-timeout study's 6 points × 2 seeds, each for SWEEP_DAYS simulated days, default 2; target
 * ≥ 1.8 on a 2-core machine), and the 30-day office fleet (scenarios/office-fleet.ts: 1,000
 * projects, each in its own simulation) on 2 threads beside 1. Results are checked equal.
 *
 * Run: npm run bench -- sweep   (FLEET_PROJECTS / FLEET_DAYS / SWEEP_DAYS shrink it for a quick look)
 */
import { fileUrl } from '../src/files/loadDefinition.js';
import { runFleetFile, sweepStudyFile } from '../src/index.js';
import { CellThreads } from '../src/study/cellThreads.js';

const PROJECTS = Number(process.env['FLEET_PROJECTS'] ?? 1_000);
const DAYS = Number(process.env['FLEET_DAYS'] ?? 30);
const SWEEP_DAYS = Number(process.env['SWEEP_DAYS'] ?? 2);
const TARGET_SPEED_UP = 1.8;

async function timed<T>(work: () => Promise<T>): Promise<{ seconds: number; result: T }> {
  const started = process.hrtime.bigint();
  const result = await work();
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, result };
}

function verdict(ratio: number): string {
  return `${ratio.toFixed(2)}×  (target ≥ ${TARGET_SPEED_UP}: ${ratio >= TARGET_SPEED_UP ? 'met' : 'MISSED'})`;
}

/** Seconds to start `count` threads and have each run a trivial cell (the fixed cost of a run). */
async function startUp(count: number): Promise<number> {
  const url = fileUrl('test/fixtures/tinyFleet.ts');
  const { seconds } = await timed(async () => {
    const pool = new CellThreads(count);
    const cells = Array.from({ length: count }, (_, i) => ({ from: i, to: i + 1 }));
    await Promise.all(
      cells.map((range) => pool.run({ kind: 'fleet', url, duration: '1m', ...range })),
    );
    await pool.close();
  });
  return seconds;
}

/** Runs the scale-out benchmark; returns whether every target was met. */
export async function runSweepBenchmark(): Promise<boolean> {
  const startUpOne = await startUp(1);
  const startUpTwo = await startUp(2);
  const study = 'scenarios/suspend-timeout-study.ts';
  const options = { seeds: [1, 2], duration: `${SWEEP_DAYS}d` };
  const one = await timed(() => sweepStudyFile(study, { ...options, workers: 1 }));
  const two = await timed(() => sweepStudyFile(study, { ...options, workers: 2 }));
  const sweepSame = JSON.stringify(one.result) === JSON.stringify(two.result);
  const sweepRatio = one.seconds / two.seconds;

  const fleetFile = 'scenarios/office-fleet.ts';
  const fleetOptions = { duration: `${DAYS}d` };
  const fleetOne = await timed(() => runFleetFile(fleetFile, { ...fleetOptions, threads: 1 }));
  const fleetTwo = await timed(() => runFleetFile(fleetFile, { ...fleetOptions, threads: 2 }));
  const fleetSame = JSON.stringify(fleetOne.result) === JSON.stringify(fleetTwo.result);
  const fleetRatio = fleetOne.seconds / fleetTwo.seconds;
  const runs = one.result.points.length * one.result.seeds.length;
  const simulated = (seconds: number) =>
    `${Math.round((PROJECTS * DAYS * 86_400) / seconds).toLocaleString('en-US')} project-seconds/s`;

  console.log(
    `\nThread start-up (load the sources, run a trivial cell): 1 thread ${startUpOne.toFixed(1)} s, ` +
      `2 threads ${startUpTwo.toFixed(1)} s (paid in every figure below)`,
  );
  console.log(`\nSweep: ${study}, ${runs} runs of ${SWEEP_DAYS} simulated days`);
  console.log(`1 worker thread                       ${one.seconds.toFixed(1)} s`);
  console.log(`2 worker threads                      ${two.seconds.toFixed(1)} s`);
  console.log(`speed-up                              ${verdict(sweepRatio)}`);
  console.log(`results identical                     ${sweepSame ? 'yes' : 'NO'}`);
  console.log(`\nFleet: ${PROJECTS} projects, ${DAYS} simulated days, one simulation per project`);
  console.log(
    `1 thread                              ${fleetOne.seconds.toFixed(1)} s, ${simulated(fleetOne.seconds)}`,
  );
  console.log(
    `2 threads                             ${fleetTwo.seconds.toFixed(1)} s, ${simulated(fleetTwo.seconds)}`,
  );
  console.log(`speed-up                              ${verdict(fleetRatio)}`);
  const { metrics } = fleetTwo.result;
  console.log(
    `fleet                                 ${metrics.sessions.toLocaleString('en-US')} sessions, ` +
      `${metrics.cuHours.toFixed(0)} CU-hours, ${metrics.starts.toLocaleString('en-US')} starts, ` +
      `p95 cold-start wait ${metrics.coldStartWaitMs.p95} ms (≤ ${(fleetTwo.result.percentileRelativeError * 100).toFixed(2)}% high)`,
  );
  console.log(`results identical                     ${fleetSame ? 'yes' : 'NO'}`);
  return sweepRatio >= TARGET_SPEED_UP && fleetRatio >= TARGET_SPEED_UP && sweepSame && fleetSame;
}

if (import.meta.url === `file://${process.argv[1]}`) await runSweepBenchmark();
