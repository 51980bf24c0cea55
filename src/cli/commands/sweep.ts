/**
 * `computesim sweep <study>`: a grid of parameters × seeds from a study file, on worker threads, on a
 * shard (`--shard i/n --out part.json`, put together by `--merge`) or on a Redis queue (`--queue`),
 * with a progress bar on a terminal; prints mean ± 95% interval per point, writes JSON, CSV and an
 * HTML report.
 */
import { formatDuration, parseDuration } from '../../core/duration.js';
import {
  DEFAULT_TABLE_FIGURES,
  figuresByKey,
  sweepCsv,
  sweepTable,
} from '../../study/sweepOutput.js';
import { sweepReport } from '../../report/html/sweepReport.js';
import type { ParamValue } from '../../study/study.js';
import { sweepShardOfFile } from '../../study/sweep.js';
import { sweepGridProblem, type SweepOptions } from '../../study/sweepPlan.js';
import type { SweepResult } from '../../study/sweepResult.js';
import { mergeSweepParts } from '../../study/sweepShard.js';
import { parseCommand, UsageError, wholeNumber } from '../args.js';
import type { CliIo } from '../io.js';
import { checkOutputFiles } from '../outputFiles.js';
import { progressBar } from '../progressBar.js';
import { sweepOnQueue } from '../queueOptions.js';
import { parseShard, readParts } from '../shardOption.js';
import {
  loadStudyFile,
  parseParams,
  parseSeeds,
  runStudyFile,
  STUDY_FLAGS,
} from '../studyOptions.js';

/** Help of the sweep command. */
const SWEEP_HELP = `Usage: computesim sweep <study.ts> [options]
       computesim sweep --merge <part.json>… [--json FILE] [--csv FILE] [--report FILE] [--figures K1,K2]

Runs every point of a study's grid (or its configurations) with several seeds on worker threads,
and prints each figure's mean ± the half-width of its 95% interval across seeds. Results do not
depend on the number of workers, shards or queue workers.

Options:
  --seeds N|LIST       5 (default): the study's seed and the next four; or a list like 1,7,9
  --param NAME=V1,V2   values to sweep for one parameter (repeatable; replaces the study's own
                       values for NAME, other grid parameters keep theirs)
  --configurations     sweep the study's configurations instead of its grid
  --duration D         run each simulation for D instead of the study's span (e.g. 1d)
  --workers N          worker threads (default: one per core)
  --figures K1,K2      figures in the table (default: ${DEFAULT_TABLE_FIGURES.join(',')})
  --json FILE          write every run and summary as JSON
  --csv FILE           write one row per point: parameters, then mean/low/high per figure
  --report FILE        write an HTML report: a chart per figure (--figures) over the swept
                       parameter, the mean with its 95% interval as a band and each seed as a dot,
                       and the grid as a table, in one self-contained file

Beyond one machine (docs/scale-out.md):
  --shard I/N          run only the I-th of N slices of the runs (1-based) and write them as a part;
                       --shard N takes I from JOB_COMPLETION_INDEX (0-based, a Kubernetes Indexed Job)
  --out FILE           where --shard writes its part (default part-I.json)
  --merge              put parts together: prints the same table, JSON, CSV and report as one
                       machine
  --queue URL          put every run on the BullMQ queue at redis://HOST:PORT and wait for workers
                       (computesim worker --queue URL) to run them

Example:
  computesim sweep scenarios/suspend-timeout-study.ts --param suspendTimeout=60,300,-1 --seeds 5
  computesim sweep scenarios/suspend-timeout-study.ts --duration 1d --report sweep.html`;

const MERGE_ALLOWS = new Set(['merge', 'json', 'csv', 'report', 'figures']);

/** Runs the sweep command. */
export async function sweepCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const merging = argv.includes('--merge');
  const { values, positionals, help } = parseCommand(
    argv,
    {
      seeds: { type: 'string' },
      param: { type: 'string', multiple: true },
      configurations: { type: 'boolean' },
      figures: { type: 'string' },
      csv: { type: 'string' },
      report: { type: 'string' },
      shard: { type: 'string' },
      out: { type: 'string' },
      merge: { type: 'boolean' },
      queue: { type: 'string' },
      ...STUDY_FLAGS,
    },
    merging ? 'some' : 1,
    merging
      ? 'part files (computesim sweep --merge part-*.json)'
      : 'a study file (computesim sweep <study.ts>)',
  );
  if (help) {
    io.out(SWEEP_HELP);
    return 0;
  }
  const figures = values.figures?.split(',').map((key) => key.trim()) ?? DEFAULT_TABLE_FIGURES;
  try {
    figuresByKey(figures);
  } catch (error) {
    throw new UsageError(`--figures: ${(error as Error).message}`);
  }
  checkOutputFiles({ json: values.json, csv: values.csv, report: values.report, out: values.out });
  if (merging) {
    const extra = Object.keys(values).find((flag) => !MERGE_ALLOWS.has(flag));
    if (extra !== undefined) throw new UsageError(`--merge does not take --${extra}`);
    printSweep(mergeSweepParts(readParts(positionals)), figures, values, io);
    return 0;
  }
  const params = parseParams(values.param ?? []);
  if (values.configurations === true && Object.keys(params).length > 0)
    throw new UsageError('--configurations and --param do not go together');
  if (values.shard !== undefined && values.queue !== undefined)
    throw new UsageError('--shard and --queue do not go together');
  if (
    values.shard !== undefined &&
    (values.json !== undefined || values.csv !== undefined || values.report !== undefined)
  )
    throw new UsageError(
      '--shard writes a part (--out); --json, --csv and --report go with --merge',
    );
  if (values.out !== undefined && values.shard === undefined)
    throw new UsageError('--out goes with --shard');
  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  const file = positionals[0] as string;
  const loaded = await loadStudyFile(file, values);
  const { study, duration } = loaded;
  const seeds = parseSeeds(values.seeds ?? '5', study.seed ?? 1);
  const problem = sweepGridProblem(study, params);
  if (problem !== undefined) throw new UsageError(`--param: ${problem}`);
  const grid: Record<string, readonly ParamValue[]> =
    values.configurations === true
      ? {}
      : { ...(study.grid as Record<string, readonly ParamValue[]> | undefined), ...params };
  if (shard !== undefined) {
    const out = values.out ?? `part-${shard.index}.json`;
    const workers =
      values.workers === undefined ? {} : { workers: wholeNumber('--workers', values.workers, 1) };
    const progress = progressBar(`shard ${shard.index}/${shard.count}`, io.progressStream, 'runs');
    try {
      const part = await sweepShardOfFile(file, shard, {
        grid,
        seeds,
        duration,
        ...workers,
        onProgress: (done, total) => progress.update(done, total),
      });
      progress.stop();
      io.writeFile(out, `${JSON.stringify(part)}\n`);
      const runs = part.to > part.from ? `runs ${part.from + 1}-${part.to}` : 'no runs';
      io.out(
        `shard ${shard.index}/${shard.count} of ${study.name}: ${runs} of ${part.shape.points.length * seeds.length}, written to ${out}`,
      );
    } finally {
      progress.stop();
    }
    return 0;
  }
  const options: SweepOptions = { grid, seeds, duration };
  const result =
    values.queue === undefined
      ? await runStudyFile(loaded, { grid, seeds }, values, io, 'sweep')
      : await sweepOnQueue(values.queue, file, study, options, io);
  printSweep(result, figures, values, io);
  return 0;
}

/**
 * Prints a sweep's table (and writes its JSON, CSV and report when asked): the same for every way
 * it ran.
 */
function printSweep(
  result: SweepResult,
  figures: readonly string[],
  files: {
    readonly json?: string | undefined;
    readonly csv?: string | undefined;
    readonly report?: string | undefined;
  },
  io: CliIo,
): void {
  if (files.json !== undefined) io.writeFile(files.json, `${JSON.stringify(result, null, 2)}\n`);
  if (files.csv !== undefined) io.writeFile(files.csv, sweepCsv(result));
  io.out(`${result.study}: ${result.description ?? ''}`.replace(/: $/, ''));
  io.out(
    `${result.points.length} points × ${result.seeds.length} seeds (${result.seeds.join(', ')}), ` +
      `${formatDuration(parseDuration(result.duration))} of virtual time each; mean ±95% interval`,
  );
  io.out('');
  for (const line of sweepTable(result, figures).split('\n')) io.out(line);
  // After the table, so a file that cannot be written never hides the results.
  if (files.report !== undefined) {
    io.writeFile(files.report, sweepReport(result, figures));
    io.err(`report written to ${files.report}`);
  }
}
