/**
 * The history of the benchmarks' figures: each headline figure a run measures is appended as one
 * JSON line to `benchmarks/results.jsonl`, with when, on which commit and machine, and the peer or
 * floor measured in the same run. docs/performance.md quotes today's figures; this file keeps the
 * ones before them, so the prose need not.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

/** Where the figures go: `BENCH_RESULTS` names another file, `BENCH_RESULTS=off` keeps none. */
const RESULTS_FILE =
  process.env['BENCH_RESULTS'] ?? fileURLToPath(new URL('../results.jsonl', import.meta.url));

/** One headline figure of a run. */
export interface Figure {
  /** What was measured, in a few words: `wall time`, `peak RSS`, `full loop / floor`. */
  readonly figure: string;
  readonly value: number;
  /** `s`, `MB`, `runs/s`, `×`… */
  readonly unit: string;
  /** What it is compared with, measured in the same run. */
  readonly peer?: { readonly name: string; readonly value: number; readonly unit: string };
  /** The target, as the benchmark prints it (`≥ 3× SimPy`), and whether this run met it. */
  readonly target?: string;
  readonly met?: boolean;
}

/** The commit measured (`-dirty` when the work tree has changes), or `unknown` outside git. */
function commitOf(): string {
  try {
    const git = (args: string[]) =>
      execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const commit = git(['rev-parse', '--short', 'HEAD']);
    return git(['status', '--porcelain', '--untracked-files=no']) === ''
      ? commit
      : `${commit}-dirty`;
  } catch {
    return 'unknown';
  }
}

/** Appends the figures of one run of `benchmark` (with `setting`: the fleet's size, say). */
export function recordFigures(
  benchmark: string,
  setting: string,
  figures: readonly Figure[],
): void {
  if (RESULTS_FILE === 'off' || figures.length === 0) return;
  const run = {
    at: new Date().toISOString(),
    commit: commitOf(),
    node: process.version,
    cpus: cpus().length,
    benchmark,
    setting,
  };
  const lines = figures.map((figure) => JSON.stringify({ ...run, ...figure })).join('\n');
  appendFileSync(RESULTS_FILE, `${lines}\n`);
  console.log(`(${figures.length} figure(s) appended to ${RESULTS_FILE})`);
}

/** `value` to `digits` decimals, for the results file. */
export function rounded(value: number, digits: number): number {
  return Number(value.toFixed(digits));
}
