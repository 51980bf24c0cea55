/**
 * `computesim fleet <fleet.ts>`: a fleet of independent projects split by project range across
 * worker threads, shards (`--shard i/n --out`, then `--merge`) or queue workers (`--queue`); prints
 * every headline figure, the same however it was split.
 */
import { fleetShardOfFile, projectRanges, runFleetFile } from '../../study/fleetFile.js';
import { fleetLines } from '../../study/fleetOutput.js';
import type { FleetPart } from '../../study/fleetPart.js';
import { fleetFingerprint, fleetResult, type FleetResult } from '../../study/fleetRun.js';
import { FLEET_FILE } from '../../study/fleet.js';
import { fileUrl, loadDefinition } from '../../definitions/loadDefinition.js';
import type { QueuedCell } from '../../queue/cellQueue.js';
import { durationOption, parseCommand, UsageError, wholeNumber } from '../args.js';
import type { CliIo } from '../io.js';
import { progressBar } from '../progressBar.js';
import { runOnQueue } from '../queueOptions.js';
import { parseShard, readParts } from '../shardOption.js';

/** Help of the fleet command. */
const FLEET_HELP = `Usage: computesim fleet <fleet.ts> [options]
       computesim fleet --merge <part.json>… [--json FILE]

Runs a fleet file (a defineFleet(...) of independent projects), each project in a simulation of
its own seeded by the fleet's seed and its index, split by project range across worker threads.
Sums and counts are exact and percentiles within a stated bound, whatever the split.

Options:
  --threads N          worker threads (default: one per core)
  --duration D         run each project for D instead of the fleet's span (e.g. 1d)
  --json FILE          write the result as JSON
  --shard I/N          run only the I-th of N project ranges and write it as a part (--shard N:
                       I from JOB_COMPLETION_INDEX, 0-based); --out FILE (default part-I.json)
  --merge              put parts together into the fleet's result
  --queue URL          run the project ranges on the BullMQ queue at redis://HOST:PORT
                       (computesim worker --queue URL runs them)`;

const MERGE_ALLOWS = new Set(['merge', 'json']);

/** Runs the fleet command. */
export async function fleetCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const merging = argv.includes('--merge');
  const { values, positionals, help } = parseCommand(
    argv,
    {
      threads: { type: 'string' },
      duration: { type: 'string' },
      json: { type: 'string' },
      shard: { type: 'string' },
      out: { type: 'string' },
      merge: { type: 'boolean' },
      queue: { type: 'string' },
    },
    merging ? 'some' : 1,
    merging
      ? 'part files (computesim fleet --merge part-*.json)'
      : 'a fleet file (computesim fleet <fleet.ts>)',
  );
  if (help) {
    io.out(FLEET_HELP);
    return 0;
  }
  if (merging) {
    const extra = Object.keys(values).find((flag) => !MERGE_ALLOWS.has(flag));
    if (extra !== undefined) throw new UsageError(`--merge does not take --${extra}`);
    const named = readParts(positionals).map(({ name, value }) => ({
      name,
      part: fleetPartOf(name, value),
    }));
    const [head] = named;
    const stranger = named.find(
      ({ part }) => JSON.stringify(part.meta) !== JSON.stringify(head?.part.meta),
    );
    if (head !== undefined && stranger !== undefined)
      throw new Error(
        `merge: ${stranger.name} is from another fleet run than ${head.name} (fleet, size, seed or span differ)`,
      );
    printFleet(fleetResult(named.map(({ part }) => part)), values.json, io);
    return 0;
  }
  if (values.shard !== undefined && values.queue !== undefined)
    throw new UsageError('--shard and --queue do not go together');
  if (values.out !== undefined && values.shard === undefined)
    throw new UsageError('--out goes with --shard');
  if (values.shard !== undefined && values.json !== undefined)
    throw new UsageError('--shard writes a part (--out); --json goes with --merge');
  const file = positionals[0] as string;
  const duration =
    values.duration === undefined ? undefined : durationOption('--duration', values.duration);
  const threads =
    values.threads === undefined ? {} : { threads: wholeNumber('--threads', values.threads, 1) };
  const options = { ...threads, ...(duration === undefined ? {} : { duration: String(duration) }) };
  const progress = progressBar('fleet', io.progressStream, 'projects');
  const onProgress = (done: number, total: number) => progress.update(done, total);
  try {
    if (values.shard !== undefined) {
      const shard = parseShard(values.shard);
      const out = values.out ?? `part-${shard.index}.json`;
      const part = await fleetShardOfFile(file, shard, { ...options, onProgress });
      progress.stop();
      io.writeFile(out, `${JSON.stringify(part)}\n`);
      const ranges = part.ranges.map(([a, b]) => `${a}-${b - 1}`).join(', ') || 'none';
      io.out(
        `shard ${shard.index}/${shard.count} of ${part.meta.fleet}: projects ${ranges}, written to ${out}`,
      );
      return 0;
    }
    const result =
      values.queue === undefined
        ? await runFleetFile(file, { ...options, onProgress })
        : await fleetOnQueue(values.queue, file, options.duration, io);
    progress.stop();
    printFleet(result, values.json, io);
    return 0;
  } finally {
    progress.stop();
  }
}

async function fleetOnQueue(
  url: string,
  file: string,
  duration: string | undefined,
  io: CliIo,
): Promise<FleetResult> {
  const loaded = await loadDefinition(fileUrl(file), FLEET_FILE);
  const fleet = duration === undefined ? loaded : { ...loaded, duration };
  const expect = fleetFingerprint(fleet);
  const ranges = projectRanges(0, fleet.projects, 64);
  const cells = ranges.map(([from, to]): QueuedCell => ({
    kind: 'fleet',
    file,
    ...(duration === undefined ? {} : { duration }),
    from,
    to,
    expect,
  }));
  const parts = await runOnQueue(url, cells, io, 'fleet', (cell) => {
    const [from, to] = ranges[cell] as [number, number];
    return `projects ${from}-${to - 1}`;
  });
  return fleetResult(parts as FleetPart[]);
}

function printFleet(result: FleetResult, json: string | undefined, io: CliIo): void {
  if (json !== undefined) io.writeFile(json, `${JSON.stringify(result, null, 2)}\n`);
  for (const line of fleetLines(result)) io.out(line);
}

function fleetPartOf(name: string, value: unknown): FleetPart {
  const part = value as Partial<FleetPart> | null;
  if (
    typeof part !== 'object' ||
    part === null ||
    part.format !== 'computesim-fleet-part/1' ||
    typeof part.meta !== 'object' ||
    !Array.isArray(part.ranges)
  )
    throw new Error(`merge: ${name} is not a fleet part (computesim fleet --shard writes them)`);
  return part as FleetPart;
}
