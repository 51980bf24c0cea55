/**
 * `computesim replay <log> --fork-at TIME --set NAME=VALUE`: forks the replayed run at an instant
 * under a change and prints both futures' figures side by side with deltas (and, asked, a report).
 */
import { formatInstant } from '../../core/instant.js';
import { forkReport } from '../../report/html/forkReport.js';
import type { Simulation } from '../../simulation/simulation.js';
import { compareFork, forkTable } from '../../study/forkComparison.js';
import { UsageError } from '../args.js';
import type { CliIo } from '../io.js';
import { settingsChangeOf } from '../settingAssignments.js';

/** The fork flags of `replay`, read. */
export interface ForkFlags {
  readonly at: number;
  readonly set: readonly string[];
  readonly until?: number;
  readonly report?: string;
}

/** Forks `simulation` (replayed from `file`) as `flags` say and prints the comparison. */
export function replayFork(
  simulation: Simulation,
  file: string,
  flags: ForkFlags,
  io: CliIo,
): number {
  if (flags.set.length === 0)
    throw new UsageError('--fork-at needs at least one --set NAME=VALUE (what the fork changes)');
  const change = settingsChangeOf(flags.set);
  const name = flags.set.join(', ');
  const result = compareFork(simulation, flags.at, change, {
    name,
    ...(flags.until === undefined ? {} : { until: flags.until }),
  });
  io.out(`${file} forked at ${formatInstant(flags.at)}: ${name}`);
  for (const line of forkTable(result).split('\n')) io.out(line);
  if (flags.report !== undefined) {
    io.writeFile(flags.report, forkReport(result, { source: file, change: name }));
    io.err(`report written to ${flags.report}`);
  }
  return 0;
}
