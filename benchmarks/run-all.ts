/**
 * Runs the benchmarks: all of them (but the region-sized `fleet-30d-10k` and `ceiling`, the fifty-year
 * `serve-50y` and the minute-long `soak`, which run only when named),
 * or those named on the command line (`npm run bench -- scheduler`).
 * Exits 1 when a target was missed and `--strict` is given.
 */
import { runCeilingBenchmark } from './ceiling.js';
import { runFleetBenchmark } from './fleet30d.js';
import { runFleet10kBenchmark } from './fleet30d10k.js';
import { runHttpBenchmark } from './http.js';
import { runPgBenchmark } from './pg.js';
import { runRequestsBenchmark } from './requests.js';
import { runSchedulerBenchmark } from './scheduler.js';
import { runServe50yBenchmark } from './serve50y.js';
import { runSoakBenchmark } from './soak.js';
import { runSweepBenchmark } from './sweep.js';
import { runTestingBenchmark } from './testing.js';

const BENCHMARKS: Readonly<Record<string, () => boolean | Promise<boolean>>> = {
  scheduler: runSchedulerBenchmark,
  requests: runRequestsBenchmark,
  'fleet-30d': runFleetBenchmark,
  'fleet-30d-10k': runFleet10kBenchmark,
  ceiling: runCeilingBenchmark,
  http: runHttpBenchmark,
  testing: runTestingBenchmark,
  pg: runPgBenchmark,
  sweep: runSweepBenchmark,
  'serve-50y': runServe50yBenchmark,
  soak: runSoakBenchmark,
};

const args = process.argv.slice(2);
const strict = args.includes('--strict');
const names = args.filter((a) => a !== '--strict');
const unknown = names.filter((n) => !(n in BENCHMARKS));
if (unknown.length > 0) {
  console.error(
    `bench: unknown benchmark ${unknown.join(', ')} (known: ${Object.keys(BENCHMARKS).join(', ')})`,
  );
  process.exit(2);
}
let allMet = true;
/** Long enough (a region-sized fleet, fifty years twice, a minute's soak) to run only when named. */
const ON_REQUEST = new Set(['fleet-30d-10k', 'ceiling', 'serve-50y', 'soak']);
for (const name of names.length > 0
  ? names
  : Object.keys(BENCHMARKS).filter((n) => !ON_REQUEST.has(n))) {
  allMet = (await (BENCHMARKS[name] as () => boolean | Promise<boolean>)()) && allMet;
}
console.log(
  `\n${allMet ? 'All targets met.' : 'Some targets were MISSED.'} (node ${process.version}, ${process.arch})`,
);
if (strict && !allMet) process.exit(1);
