/**
 * Runs the benchmarks: all of them (but the region-sized `fleet-30d-10k` and `ceiling`, the fifty-year
 * `serve-50y`, the minute-long `soak`, the `hostile` clients of issue 50 and `apply`, issue 48's
 * baseline, which run only when named),
 * or those named on the command line (`npm run bench -- scheduler`).
 * Exits 1 when a target was missed and `--strict` is given.
 */
/**
 * Each benchmark, loaded only when it runs: a module may read and check its settings (the fleet's
 * size, say) as it loads, and a benchmark not asked for should neither cost its load nor fail on them.
 */
const BENCHMARKS: Readonly<Record<string, () => Promise<boolean>>> = {
  scheduler: async () => (await import('./scheduler.js')).runSchedulerBenchmark(),
  requests: async () => (await import('./requests.js')).runRequestsBenchmark(),
  'fleet-30d': async () => (await import('./fleet30d.js')).runFleetBenchmark(),
  'fleet-30d-10k': async () => (await import('./fleet30d10k.js')).runFleet10kBenchmark(),
  ceiling: async () => (await import('./ceiling.js')).runCeilingBenchmark(),
  http: async () => (await import('./http.js')).runHttpBenchmark(),
  testing: async () => (await import('./testing.js')).runTestingBenchmark(),
  pg: async () => (await import('./pg.js')).runPgBenchmark(),
  sweep: async () => (await import('./sweep.js')).runSweepBenchmark(),
  'serve-50y': async () => (await import('./serve50y.js')).runServe50yBenchmark(),
  soak: async () => (await import('./soak.js')).runSoakBenchmark(),
  hostile: async () => (await import('./hostile.js')).runHostileBenchmark(),
  toolkit: async () => (await import('./toolkit.js')).runToolkitBenchmark(),
  apply: async () => (await import('./apply.js')).runApplyBenchmark(),
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
/**
 * Long enough (a region-sized fleet, fifty years twice, a minute's soak, minutes of hostile clients
 * against serve processes of their own) to run only when named.
 */
const ON_REQUEST = new Set(['fleet-30d-10k', 'ceiling', 'serve-50y', 'soak', 'hostile', 'apply']);
for (const name of names.length > 0
  ? names
  : Object.keys(BENCHMARKS).filter((n) => !ON_REQUEST.has(n))) {
  allMet = (await (BENCHMARKS[name] as () => Promise<boolean>)()) && allMet;
}
console.log(
  `\n${allMet ? 'All targets met.' : 'Some targets were MISSED.'} (node ${process.version}, ${process.arch})`,
);
if (strict && !allMet) process.exit(1);
