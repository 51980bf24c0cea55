/**
 * `computesim compare <study>`: runs a study file's configurations side by side (the same seeds,
 * so the same sessions) on worker threads and prints the comparison table with deltas against the
 * first; over several seeds, the mean paired differences with their 95% intervals. `--report`
 * draws it as HTML, the first seed's run of every configuration replayed in this thread.
 */
import { formatDuration, parseDuration } from '../../core/duration.js';
import { compareArm, compareReport, type CompareArm } from '../../report/html/compareReport.js';
import { comparisonTable, type Comparison } from '../../study/compare.js';
import {
  pairedComparison,
  pairedTable,
  type PairedComparison,
} from '../../study/pairedComparison.js';
import { playStudy } from '../../study/runStudy.js';
import { parseCommand, UsageError, wholeNumber } from '../args.js';
import type { CliIo } from '../io.js';
import { checkOutputFiles } from '../outputFiles.js';
import { progressBar } from '../progressBar.js';
import {
  loadStudyFile,
  parseSeeds,
  runStudyFile,
  STUDY_FLAGS,
  type LoadedStudy,
} from '../studyOptions.js';

/** Help of the compare command. */
const COMPARE_HELP = `Usage: computesim compare <study.ts> [options]

Runs every configuration of a study file (a module that default-exports defineStudy({...})) with the
same seed, so every configuration sees the same sessions, and prints the figures side by side with
deltas against the first configuration. With several seeds, every configuration runs each of them
and the deltas are the mean differences seed by seed, with their 95% intervals.

Options:
  --seed N          seed of the runs (default: the study's)
  --seeds N|LIST    1 (default): that seed alone; N: it and the next N-1; or a list like 1,7,9
  --duration D      run each configuration for D instead of the study's span (e.g. 1d)
  --workers N       worker threads (default: one per core)
  --json FILE       also write the results as JSON
  --report FILE     also write an HTML report: the figures with their intervals, and the first
                    seed's run of every configuration on the same axes (compute lanes paired, CU
                    and active computes over time), in one self-contained file

Example:
  computesim compare scenarios/suspend-timeout-study.ts --duration 2d --seeds 5 --report compare.html`;

/** Runs the compare command. */
export async function compareCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals, help } = parseCommand(
    argv,
    {
      seed: { type: 'string' },
      seeds: { type: 'string' },
      report: { type: 'string' },
      ...STUDY_FLAGS,
    },
    1,
    'a study file (computesim compare <study.ts>)',
  );
  if (help) {
    io.out(COMPARE_HELP);
    return 0;
  }
  if (values.seed !== undefined && values.seeds?.includes(',') === true)
    throw new UsageError('--seed and a list of --seeds do not go together (put it in the list)');
  checkOutputFiles({ json: values.json, report: values.report });
  const loaded = await loadStudyFile(positionals[0] as string, values);
  const { study, duration } = loaded;
  const first = values.seed === undefined ? (study.seed ?? 1) : wholeNumber('--seed', values.seed);
  const seeds = parseSeeds(values.seeds ?? '1', first);
  const result = await runStudyFile(loaded, { grid: {}, seeds }, values, io, 'compare');
  // The first seed's figures, side by side (the whole comparison with one seed).
  const comparison: Comparison = {
    rows: result.points.map((point) => ({ name: point.name, fleet: point.runs[0]!.fleet })),
  };
  const paired = pairedComparison(result);
  if (values.json !== undefined)
    io.writeFile(
      values.json,
      `${JSON.stringify({ ...result, comparison, ...(seeds.length > 1 ? { paired } : {}) }, null, 2)}\n`,
    );
  const span = `${formatDuration(parseDuration(duration))} of virtual time per configuration`;
  io.out(`${study.name}: ${study.description ?? ''}`.replace(/: $/, ''));
  if (seeds.length === 1) io.out(`seed ${seeds[0]}, ${span}`);
  else
    io.out(
      `seeds ${seeds.join(', ')}, each under every configuration, ${span}; ` +
        'mean ±95% interval, Δ: mean paired difference ±95% interval',
    );
  io.out('');
  const table = seeds.length === 1 ? comparisonTable(comparison) : pairedTable(paired);
  for (const line of table.split('\n')) io.out(line);
  // After the table, so a file that cannot be written never hides the results.
  if (values.report !== undefined) {
    io.writeFile(values.report, drawComparison(loaded, paired, io));
    io.err(`report written to ${values.report}`);
  }
  return 0;
}

/**
 * The report of a comparison: each configuration's run of the first seed played again in this
 * thread with its log (the workers keep none), drawn, and let go before the next.
 */
function drawComparison(loaded: LoadedStudy, paired: PairedComparison, io: CliIo): string {
  const study = { ...loaded.study, duration: loaded.duration };
  const seed = paired.seeds[0] as number;
  const arms: CompareArm[] = [];
  let from = 0;
  let until = 0;
  const progress = progressBar('report', io.progressStream, 'runs');
  try {
    for (const configuration of study.configurations) {
      const sim = playStudy(study, configuration, seed);
      until = sim.now();
      from = sim.log.get(0)?.at ?? until;
      arms.push(compareArm(configuration.name, sim.log, from, until));
      progress.update(arms.length, study.configurations.length);
    }
  } finally {
    progress.stop();
  }
  return compareReport({
    study: study.name,
    description: study.description,
    duration: loaded.duration,
    paired,
    arms,
    from,
    until,
  });
}
