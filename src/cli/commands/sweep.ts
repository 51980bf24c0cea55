/**
 * `computesim sweep <study>`: a grid of parameters × seeds from a study file, on worker threads, with
 * a progress bar on a terminal; prints mean ± 95% interval per point, writes JSON and CSV on request.
 */
import { formatDuration, parseDuration } from '../../core/duration.js';
import {
  DEFAULT_TABLE_FIGURES,
  figuresByKey,
  sweepCsv,
  sweepTable,
} from '../../study/sweepOutput.js';
import type { ParamValue } from '../../study/study.js';
import { sweepGridProblem } from '../../study/sweepPlan.js';
import { parseCommand, UsageError } from '../args.js';
import type { CliIo } from '../io.js';
import {
  loadStudyFile,
  parseParams,
  parseSeeds,
  runStudyFile,
  STUDY_FLAGS,
} from '../studyOptions.js';

/** Help of the sweep command. */
export const SWEEP_HELP = `Usage: computesim sweep <study.ts> [options]

Runs every point of a study's grid (or its configurations) with several seeds on worker threads,
and prints each figure's mean ± the half-width of its 95% interval across seeds. Results do not
depend on the number of workers.

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

Example:
  computesim sweep scenarios/suspend-timeout-study.ts --param suspendTimeout=60,300,-1 --seeds 5`;

/** Runs the sweep command. */
export async function sweepCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals, help } = parseCommand(
    argv,
    {
      seeds: { type: 'string' },
      param: { type: 'string', multiple: true },
      configurations: { type: 'boolean' },
      figures: { type: 'string' },
      csv: { type: 'string' },
      ...STUDY_FLAGS,
    },
    1,
    'a study file (computesim sweep <study.ts>)',
  );
  if (help) {
    io.out(SWEEP_HELP);
    return 0;
  }
  const params = parseParams(values.param ?? []);
  if (values.configurations === true && Object.keys(params).length > 0)
    throw new UsageError('--configurations and --param do not go together');
  const figures = values.figures?.split(',').map((key) => key.trim()) ?? DEFAULT_TABLE_FIGURES;
  try {
    figuresByKey(figures);
  } catch (error) {
    throw new UsageError(`--figures: ${(error as Error).message}`);
  }
  const loaded = await loadStudyFile(positionals[0] as string, values);
  const { study, duration } = loaded;
  const seeds = parseSeeds(values.seeds ?? '5', study.seed ?? 1);
  const problem = sweepGridProblem(study, params);
  if (problem !== undefined) throw new UsageError(`--param: ${problem}`);
  const grid: Record<string, readonly ParamValue[]> =
    values.configurations === true
      ? {}
      : { ...(study.grid as Record<string, readonly ParamValue[]> | undefined), ...params };
  const result = await runStudyFile(loaded, { grid, seeds }, values, io, 'sweep');
  if (values.json !== undefined) io.writeFile(values.json, `${JSON.stringify(result, null, 2)}\n`);
  if (values.csv !== undefined) io.writeFile(values.csv, sweepCsv(result));
  io.out(`${study.name}: ${study.description ?? ''}`.replace(/: $/, ''));
  io.out(
    `${result.points.length} points × ${seeds.length} seeds (${seeds.join(', ')}), ` +
      `${formatDuration(parseDuration(duration))} of virtual time each; mean ±95% interval`,
  );
  io.out('');
  for (const line of sweepTable(result, figures).split('\n')) io.out(line);
  return 0;
}
