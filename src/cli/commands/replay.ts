/**
 * `computesim replay`: narrates an event log (JSON Lines, a streamed log or a `serve` state file), or shows the state
 * at an instant of it. The file is streamed, so its size is limited by memory for the state, not text.
 */
import { tryParseDuration } from '../../core/duration.js';
import { formatInstant, tryParseInstant } from '../../core/instant.js';
import { replayLogFile, type ReplayedLogFile } from '../../files/replayLogFile.js';
import { createNarrator } from '../../projection/narrator.js';
import { summarizeState } from '../../report/summarizeState.js';
import { timelineLine } from '../../projection/timelineLine.js';
import { parseCommand, UsageError } from '../args.js';
import type { CliIo } from '../io.js';

/** Help of the replay command. */
export const REPLAY_HELP = `Usage: computesim replay <log.jsonl> [--at TIME]

Narrates a saved event log, event by event, or prints the state at one instant of it. The log may be
JSON Lines (run --log), a streamed log (LogFileSink) or a serve state file.

Options:
  --at TIME    show the state at TIME: ISO 8601 like 2026-01-05T09:05:00Z, or +5m from the start`;

/** Runs the replay command. */
export function replay(argv: readonly string[], io: CliIo): number {
  const { values, positionals, help } = parseCommand(
    argv,
    { at: { type: 'string' } },
    1,
    'a log file (computesim replay <log.jsonl>)',
  );
  if (help) {
    io.out(REPLAY_HELP);
    return 0;
  }
  const file = positionals[0] as string;
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
