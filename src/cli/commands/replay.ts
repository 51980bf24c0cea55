/**
 * `computesim replay`: narrates an event log (JSON Lines, a streamed log or a `serve` state file), or shows the state
 * at an instant of it. The file is streamed, so its size is limited by memory for the state, not text.
 */
import { tryParseDuration } from '../../core/duration.js';
import { formatInstant, tryParseInstant } from '../../core/instant.js';
import { replayLogFile, type ReplayedLogFile } from '../../logfiles/replayLogFile.js';
import { createNarrator } from '../../projection/narrator.js';
import { summarizeState } from '../../report/summarizeState.js';
import { timelineLine } from '../../projection/timelineLine.js';
import { parseCommand, UsageError } from '../args.js';
import type { CliIo } from '../io.js';
import { SET_HELP } from '../settingAssignments.js';
import { replayFork } from './replayFork.js';

/** Help of the replay command. */
const REPLAY_HELP = `Usage: computesim replay <log.jsonl> [--at TIME]
       computesim replay <log.jsonl> --fork-at TIME --set NAME=VALUE… [--until TIME] [--report FILE]

Narrates a saved event log, event by event, or prints the state at one instant of it. The log may be
JSON Lines (run --log), a streamed log (LogFileSink) or a serve state file. With --fork-at, forks
the run at TIME under the --set changes (the same history up to TIME, the same sessions after it)
and prints both futures' figures side by side with deltas.

Options:
  --at TIME         show the state at TIME: ISO 8601 like 2026-01-05T09:05:00Z, or +5m from the start
  --fork-at TIME    fork the run at TIME (same forms as --at)
${SET_HELP}
  --until TIME      run both futures to TIME (default: the end of the log)
  --report FILE     also write an HTML report drawing both futures

Example:
  computesim replay run.jsonl --fork-at 2026-01-06T10:00Z --set suspendTimeout=60`;

/** Runs the replay command. */
export function replay(argv: readonly string[], io: CliIo): number {
  const { values, positionals, help } = parseCommand(
    argv,
    {
      at: { type: 'string' },
      'fork-at': { type: 'string' },
      set: { type: 'string', multiple: true },
      until: { type: 'string' },
      report: { type: 'string' },
    },
    1,
    'a log file (computesim replay <log.jsonl>)',
  );
  if (help) {
    io.out(REPLAY_HELP);
    return 0;
  }
  const file = positionals[0] as string;
  const forkAt = values['fork-at'];
  if (forkAt === undefined) {
    const stray = (['set', 'until', 'report'] as const).find((flag) => values[flag] !== undefined);
    if (stray !== undefined) throw new UsageError(`--${stray} needs --fork-at`);
  } else if (values.at !== undefined) throw new UsageError('--at and --fork-at do not go together');
  let replayed: ReplayedLogFile;
  try {
    replayed = replayLogFile(file);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code;
    if (reason === undefined) throw error;
    throw new Error(`cannot read ${file}: ${reason}`, { cause: error });
  }
  const { simulation, scan } = replayed;
  if (scan.dropped !== undefined)
    io.err(
      `computesim: warning: ${file}${scan.dropped.fromLine > 0 ? ` line ${scan.dropped.fromLine}` : ''}: ${scan.dropped.reason} (ignored)`,
    );
  if (simulation === undefined) throw new Error(`${file} holds no events`);
  const start = simulation.log.get(0)?.at as number;
  if (forkAt !== undefined) {
    const at = withinLog(resolveTime(forkAt, start), '--fork-at', forkAt, start, simulation.now());
    const until = values.until === undefined ? undefined : resolveTime(values.until, start);
    if (until !== undefined && until < at)
      throw new UsageError(`--until ${values.until} is before --fork-at ${forkAt}`);
    return replayFork(
      simulation,
      file,
      {
        at,
        set: values.set ?? [],
        ...(until === undefined ? {} : { until }),
        ...(values.report === undefined ? {} : { report: values.report }),
      },
      io,
    );
  }
  if (values.at !== undefined) {
    const at = resolveTime(values.at, start);
    if (at > simulation.now())
      throw new UsageError(
        `--at ${values.at} is after the last event (${formatInstant(simulation.now())})`,
      );
    if (at < start)
      throw new UsageError(`--at ${values.at} is before the log starts (${formatInstant(start)})`);
    io.out(`state at ${formatInstant(at)}:`);
    for (const line of summarizeState(simulation.stateAt(at))) io.out(line);
    return 0;
  }
  const narrate = createNarrator();
  for (const event of simulation.log) {
    const line = narrate(event);
    if (line !== undefined) io.out(timelineLine(event.at, start, line));
  }
  return 0;
}

/** `at` when it lies within the log, else a usage error naming the flag. */
function withinLog(at: number, flag: string, text: string, start: number, end: number): number {
  if (at > end)
    throw new UsageError(`${flag} ${text} is after the last event (${formatInstant(end)})`);
  if (at < start)
    throw new UsageError(`${flag} ${text} is before the log starts (${formatInstant(start)})`);
  return at;
}

function resolveTime(text: string, start: number): number {
  if (text.startsWith('+')) {
    const offset = tryParseDuration(text.slice(1));
    if (!offset.ok) throw new UsageError(offset.error);
    return start + offset.value;
  }
  const instant = tryParseInstant(text);
  if (!instant.ok) throw new UsageError(instant.error);
  return instant.value;
}
