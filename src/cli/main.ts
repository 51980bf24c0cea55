/**
 * The `computesim` command line: argv → files → runner → printed output. The only place in src/
 * that does process I/O. Every error is one line on stderr and a non-zero exit code.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { tryParseDuration } from '../core/duration.js';
import { formatInstant, tryParseInstant } from '../core/instant.js';
import { Simulation } from '../engine/simulation.js';
import { createNarrator } from '../report/narrator.js';
import { summarizeState } from '../report/summarizeState.js';
import { timelineLine } from '../report/timelineLine.js';
import { quickstart } from '../scenario/quickstart.js';

const USAGE = `Usage: computesim <command> [options]

Commands:
  demo [--seed N]                    run the quickstart demo and narrate it
  replay <log.jsonl> [--at TIME]     narrate a JSON Lines event log, or show the state at TIME
                                     (TIME: ISO 8601 like 2026-01-05T09:05:00Z, or +5m from the start)

Options:
  -h, --help                         show this help
  -v, --version                      show the version`;

/** Exit codes: 0 success, 1 the work failed, 2 the command line was wrong. */
class UsageError extends Error {}

/** Runs the CLI; returns the exit code. Output goes through the given writers (tests capture them). */
export function main(
  argv: readonly string[],
  out: (line: string) => void,
  err: (line: string) => void,
): number {
  try {
    const [command, ...rest] = argv;
    switch (command) {
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        out(USAGE);
        return 0;
      case '-v':
      case '--version':
        out(version());
        return 0;
      case 'demo':
        return demo(rest, out);
      case 'replay':
        return replay(rest, out, err);
      default:
        throw new UsageError(`unknown command "${command}" (try: computesim --help)`);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    err(`computesim: ${message.split('\n')[0]}`);
    return error instanceof UsageError ? 2 : 1;
  }
}

function demo(argv: readonly string[], out: (line: string) => void): number {
  const { values } = parse(argv, { seed: { type: 'string' } }, 0);
  const seed = values.seed === undefined ? 42 : Number(values.seed);
  if (!Number.isSafeInteger(seed))
    throw new UsageError(`--seed must be a whole number, got "${String(values.seed)}"`);
  for (const line of quickstart(seed)) out(line);
  return 0;
}

function replay(
  argv: readonly string[],
  out: (line: string) => void,
  err: (line: string) => void,
): number {
  const { values, positionals } = parse(argv, { at: { type: 'string' } }, 1);
  const file = positionals[0] as string;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new Error(`cannot read ${file}: ${reason}`, { cause: error });
  }
  const { simulation, tornLastLine } = Simulation.fromJSONL(text);
  if (tornLastLine !== undefined)
    err(`computesim: warning: ${file} line ${tornLastLine.line}: ${tornLastLine.reason}`);
  const start = simulation.log.get(0)?.at as number;
  if (values.at !== undefined) {
    const at = resolveTime(values.at, start);
    if (at > simulation.now())
      throw new UsageError(
        `--at ${values.at} is after the last event (${formatInstant(simulation.now())})`,
      );
    if (at < start)
      throw new UsageError(`--at ${values.at} is before the log starts (${formatInstant(start)})`);
    out(`state at ${formatInstant(at)}:`);
    for (const line of summarizeState(simulation.stateAt(at))) out(line);
    return 0;
  }
  const narrate = createNarrator();
  for (const event of simulation.log) {
    const text = narrate(event);
    if (text !== undefined) out(timelineLine(event.at, start, text));
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

function parse<O extends Record<string, { type: 'string' | 'boolean' }>>(
  argv: readonly string[],
  options: O,
  positionals: number,
) {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message, { cause: error });
  }
  if (parsed.positionals.length !== positionals) {
    throw new UsageError(
      positionals === 0
        ? `unexpected argument "${parsed.positionals[0]}"`
        : 'expected a log file (computesim replay <log.jsonl>)',
    );
  }
  return parsed;
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}
