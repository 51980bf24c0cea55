/**
 * A fleet file run on worker threads: its projects split into ranges, the ranges run on the threads
 * and their parts merged (or one shard's ranges, as a part to merge with the other shards'). Results
 * do not depend on the number of threads or shards.
 */
import { availableParallelism } from 'node:os';
import { fileUrl, loadDefinition } from '../definitions/loadDefinition.js';
import { FLEET_FILE, type FleetDefinition } from './fleet.js';
import { FleetTally, type FleetPart } from './fleetPart.js';
import { fleetMeta, fleetResult, type FleetResult } from './fleetRun.js';
import type { SweepProgress } from './sweepPlan.js';
import { shardProblem, shardRange, type Shard } from './sweepShard.js';

/** Options of a fleet run on threads. */
export interface FleetFileOptions {
  /** Worker threads (default: the cores available). */
  readonly threads?: number;
  /** Run each project for this long instead of the fleet's duration. */
  readonly duration?: string;
  /** Called as ranges finish, with the projects done so far and the total. */
  readonly onProgress?: SweepProgress;
}

/** Runs the fleet a file default-exports on worker threads. */
export async function runFleetFile(
  file: string,
  options: FleetFileOptions = {},
): Promise<FleetResult> {
  return fleetResult([(await runRanges(file, options, undefined)).part]);
}

/** Runs one shard (a contiguous range of projects) of a fleet file: a part for `fleetResult`. */
export async function fleetShardOfFile(
  file: string,
  shard: Shard,
  options: FleetFileOptions = {},
): Promise<FleetPart> {
  const problem = shardProblem(shard);
  if (problem !== undefined) throw new RangeError(`fleet: ${problem}`);
  return (await runRanges(file, options, shard)).part;
}

/** Splits `[from, to)` into `count` contiguous ranges (none empty). */
export function projectRanges(from: number, to: number, count: number): [number, number][] {
  const n = Math.max(1, Math.min(count, to - from));
  return Array.from({ length: n }, (_, i) => [
    from + Math.floor((i * (to - from)) / n),
    from + Math.floor(((i + 1) * (to - from)) / n),
  ]);
}

async function runRanges(
  file: string,
  options: FleetFileOptions,
  shard: Shard | undefined,
): Promise<{ fleet: FleetDefinition; part: FleetPart }> {
  const url = fileUrl(file);
  const fleet = await loadDefinition(url, FLEET_FILE);
  const threads = options.threads ?? availableParallelism();
  if (!Number.isSafeInteger(threads) || threads < 1)
    throw new RangeError(`fleet: threads must be a whole number ≥ 1, got ${String(threads)}`);
  const { from, to } =
    shard === undefined ? { from: 0, to: fleet.projects } : shardRange(fleet.projects, shard);
  const tally = new FleetTally(
    fleetMeta(options.duration === undefined ? fleet : { ...fleet, duration: options.duration }),
  );
  if (to === from) return { fleet, part: tally.part() };
  // A few ranges per thread, so a slow range does not leave the other threads idle at the end.
  const ranges = projectRanges(from, to, threads * 4);
  const { CellThreads } = await import('./cellThreads.js');
  const pool = new CellThreads(Math.min(threads, ranges.length), [url]);
  let done = 0;
  try {
    const parts = await Promise.all(
      ranges.map(async ([a, b]) => {
        const part = (await pool.run({
          kind: 'fleet',
          url,
          ...(options.duration === undefined ? {} : { duration: options.duration }),
          from: a,
          to: b,
        })) as FleetPart;
        done += b - a;
        options.onProgress?.(done, to - from);
        return part;
      }),
    );
    for (const part of parts) tally.merge(part);
  } finally {
    await pool.close();
  }
  return { fleet, part: tally.part() };
}
