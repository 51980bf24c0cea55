/**
 * `computesim compare <study>`: runs a study file's configurations side by side (same seed, same
 * sessions) on worker threads and prints the comparison table with deltas against the first.
 */
import { formatDuration, parseDuration } from '../../core/duration.js';
import { comparisonTable, type Comparison } from '../../study/compare.js';
import { parseCommand, wholeNumber } from '../args.js';
import type { CliIo } from '../io.js';
import { loadStudyFile, runStudyFile, STUDY_FLAGS } from '../studyOptions.js';

/** Help of the compare command. */
export const COMPARE_HELP = `Usage: computesim compare <study.ts> [options]

Runs every configuration of a study file (a module that default-exports defineStudy({...})) with the
same seed, so every configuration sees the same sessions, and prints the figures side by side with
deltas against the first configuration.

Options:
  --seed N          seed of the runs (default: the study's)
  --duration D      run each configuration for D instead of the study's span (e.g. 1d)
  --workers N       worker threads (default: one per core)
  --json FILE       also write the results as JSON

Example:
  computesim compare scenarios/suspend-timeout-study.ts --duration 2d`;

/** Runs the compare command. */
export async function compareCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals, help } = parseCommand(
    argv,
    { seed: { type: 'string' }, ...STUDY_FLAGS },
    1,
    'a study file (computesim compare <study.ts>)',
  );
  if (help) {
    io.out(COMPARE_HELP);
    return 0;
  }
  const loaded = await loadStudyFile(positionals[0] as string, values);
  const { study, duration } = loaded;
  const seed = values.seed === undefined ? (study.seed ?? 1) : wholeNumber('--seed', values.seed);
  const result = await runStudyFile(loaded, { grid: {}, seeds: [seed] }, values, io, 'compare');
  const comparison: Comparison = {
    rows: result.points.map((point) => ({ name: point.name, fleet: point.runs[0]!.fleet })),
  };
  if (values.json !== undefined)
    io.writeFile(values.json, `${JSON.stringify({ ...result, comparison }, null, 2)}\n`);
  io.out(`${study.name}: ${study.description ?? ''}`.replace(/: $/, ''));
  io.out(
    `seed ${seed}, ${formatDuration(parseDuration(duration))} of virtual time per configuration`,
  );
  io.out('');
  for (const line of comparisonTable(comparison).split('\n')) io.out(line);
  return 0;
}
