/**
 * Benchmark helpers: run a workload several times, keep the median, and print rates and ratios
 * against floors measured in the same process.
 */

/** One measured workload. */
export interface Measurement {
  readonly name: string;
  readonly events: number;
  readonly seconds: number;
  readonly eventsPerSecond: number;
}

/** A measured workload with the ratio it should reach against the main floor. */
export interface Row extends Measurement {
  readonly target?: number;
}

/**
 * A whole number ≥ `least` from the environment variable `name` (`fallback` when unset); anything
 * else ends the benchmark with a one-line error naming the variable.
 */
export function wholeFromEnv(name: string, fallback: number, least = 1): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (Number.isSafeInteger(value) && value >= least) return value;
  console.error(`${name} must be a whole number ≥ ${least}, got ${JSON.stringify(text)}`);
  process.exit(2);
}

/** The middle value of `values` (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Collects garbage left by earlier samples when node runs with --expose-gc (the bench script does). */
function settle(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/**
 * Runs `work` (which returns how many events it processed) `runs` times after one warm-up, each on a
 * collected heap so no sample pays for the previous one's garbage; keeps the median.
 */
export function measure(name: string, work: () => number, runs = 3): Measurement {
  work();
  const samples: { events: number; seconds: number }[] = [];
  for (let i = 0; i < runs; i++) {
    settle();
    const started = process.hrtime.bigint();
    const events = work();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    samples.push({ events, seconds });
  }
  samples.sort((a, b) => a.seconds - b.seconds);
  const median = samples[Math.floor(samples.length / 2)] as { events: number; seconds: number };
  return { name, ...median, eventsPerSecond: median.events / median.seconds };
}

/** Formats a rate with thousands separators. */
export function rate(perSecond: number): string {
  return `${Math.round(perSecond).toLocaleString('en-US')}/s`;
}

/**
 * Prints measurements as an aligned table with each one's ratio to `floor` (targets are judged on it)
 * and to `strictFloor` (a cheaper structure that does less), and returns whether every target was met.
 */
export function report(
  title: string,
  floor: Measurement,
  strictFloor: Measurement,
  rows: readonly Row[],
): boolean {
  console.log(`\n${title}`);
  console.log(
    `${'workload'.padEnd(44)} ${'events'.padStart(10)} ${'seconds'.padStart(8)} ${'rate'.padStart(13)}  ${'ratio'.padStart(5)}  ${'strict'.padStart(6)}  target`,
  );
  let allMet = true;
  for (const row of [floor, strictFloor, ...rows] as Row[]) {
    const ratio = row.eventsPerSecond / floor.eventsPerSecond;
    const strict = row.eventsPerSecond / strictFloor.eventsPerSecond;
    const verdict =
      row.target === undefined
        ? ''
        : `≥ ${row.target.toFixed(2)} ${ratio >= row.target ? 'met' : 'MISSED'}`;
    if (row.target !== undefined && ratio < row.target) allMet = false;
    console.log(
      `${row.name.padEnd(44)} ${row.events.toLocaleString('en-US').padStart(10)} ${row.seconds.toFixed(3).padStart(8)} ${rate(row.eventsPerSecond).padStart(13)}  ${ratio.toFixed(2).padStart(5)}  ${strict.toFixed(2).padStart(6)}  ${verdict}`,
    );
  }
  return allMet;
}
