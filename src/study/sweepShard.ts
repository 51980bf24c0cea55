/**
 * Shards of a sweep: the i-th of n contiguous slices of its runs, written as a part file by any batch
 * runner, and the merge of all n parts back into the sweep's results, exactly as one machine gives
 * them. A part carries the sweep's shape, so a merge can tell parts of different sweeps apart.
 */
import type { FleetMetrics } from '../projection/metrics.js';
import { runCount, sweepResult, type SweepResult, type SweepShape } from './sweepResult.js';

/** The `index`-th (1-based) of `count` slices. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** What a shard ran: its slice of a sweep's runs, and the sweep's shape. */
export interface SweepPart {
  readonly format: typeof PART_FORMAT;
  readonly shard: Shard;
  readonly shape: SweepShape;
  /** Runs `[from, to)` of the sweep, in task order. */
  readonly from: number;
  readonly to: number;
  readonly runs: readonly FleetMetrics[];
}

/** The format tag of part files. */
export const PART_FORMAT = 'computesim-sweep-part/1';

/** Runs `[from, to)` of `total` that shard `shard` runs (contiguous, sizes differing by one at most). */
export function shardRange(total: number, shard: Shard): { from: number; to: number } {
  return {
    from: Math.floor(((shard.index - 1) * total) / shard.count),
    to: Math.floor((shard.index * total) / shard.count),
  };
}

/** What is wrong with a shard, or `undefined`. */
export function shardProblem(shard: Shard): string | undefined {
  if (!Number.isSafeInteger(shard.count) || shard.count < 1)
    return `the shard count must be a whole number ≥ 1, got ${shard.count}`;
  if (!Number.isSafeInteger(shard.index) || shard.index < 1 || shard.index > shard.count)
    return `the shard index must be 1 to ${shard.count}, got ${shard.index}`;
  return undefined;
}

/** A part read from somewhere, with a name (its file) for messages. */
export interface NamedPart {
  readonly name: string;
  readonly value: unknown;
}

/**
 * Merges every part of one sweep into its results, in task order. Throws a `RangeError` with one
 * line naming the part at fault: not a part, from another sweep, a shard given twice or missing.
 */
export function mergeSweepParts(parts: readonly NamedPart[]): SweepResult {
  const [first] = parts;
  if (first === undefined) throw new RangeError('merge: give the part files to merge');
  const checked = parts.map(({ name, value }) => ({ name, part: asPart(name, value) }));
  const head = checked[0]!;
  const shape = JSON.stringify(head.part.shape);
  const byIndex = new Map<number, string>();
  for (const { name, part } of checked) {
    if (JSON.stringify(part.shape) !== shape)
      throw new RangeError(
        `merge: ${name} is from another sweep than ${head.name} (study, points, seeds or span differ)`,
      );
    if (part.shard.count !== head.part.shard.count)
      throw new RangeError(
        `merge: ${name} is shard ${label(part.shard)}, but ${head.name} is of ${head.part.shard.count}`,
      );
    const twin = byIndex.get(part.shard.index);
    if (twin !== undefined)
      throw new RangeError(`merge: shard ${label(part.shard)} is given twice: ${twin} and ${name}`);
    byIndex.set(part.shard.index, name);
    const expected = shardRange(runCount(part.shape), part.shard);
    if (
      part.from !== expected.from ||
      part.to !== expected.to ||
      part.runs.length !== part.to - part.from
    )
      throw new RangeError(`merge: ${name} does not hold the runs of shard ${label(part.shard)}`);
  }
  const count = head.part.shard.count;
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0)
    throw new RangeError(
      `merge: missing shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')} (no part given for ${missing.length > 1 ? 'them' : 'it'})`,
    );
  const ordered = checked.map((c) => c.part).sort((a, b) => a.shard.index - b.shard.index);
  return sweepResult(
    head.part.shape,
    ordered.flatMap((part) => part.runs),
  );
}

function label(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

function asPart(name: string, value: unknown): SweepPart {
  const part = value as Partial<SweepPart> | null;
  if (
    typeof part !== 'object' ||
    part === null ||
    part.format !== PART_FORMAT ||
    typeof part.shard !== 'object' ||
    shardProblem(part.shard) !== undefined ||
    typeof part.shape !== 'object' ||
    !Array.isArray(part.runs)
  )
    throw new RangeError(
      `merge: ${name} is not a sweep part (computesim sweep --shard writes them)`,
    );
  return part as SweepPart;
}
