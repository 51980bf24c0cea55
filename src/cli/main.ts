/**
 * The `computesim` command line: argv → command → printed output. The CLI is the only part of src/
 * that prints or writes files. Every error is one line on stderr and a non-zero exit code.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from './args.js';
import { compareCommand } from './commands/compare.js';
import { demo } from './commands/demo.js';
import { replay } from './commands/replay.js';
import { runCommand } from './commands/run.js';
import { serveCommand } from './commands/serve.js';
import { sweepCommand } from './commands/sweep.js';
import { fleetCommand } from './commands/fleet.js';
import { workerCommand } from './commands/worker.js';
import type { CliIo } from './io.js';

const USAGE = `Usage: computesim <command> [options]

Commands:
  demo [--seed N]                    run the quickstart demo and narrate it
  run <scenario.ts> [options]        play a scenario: timeline, expectations, metrics summary
  replay <log.jsonl> [--at TIME]     narrate a JSON Lines event log, or show the state at TIME
  replay <log.jsonl> --fork-at TIME --set NAME=VALUE   fork the run there: both futures side by side
  compare <study.ts> [options]       a study's configurations side by side, same sessions
  sweep <study.ts> [options]         a grid of parameters × seeds, mean and 95% interval
  fleet <fleet.ts> [options]         many independent projects split across threads, exact merges
  worker --queue redis://HOST:PORT   run the cells of sweeps and fleets put on a Redis queue
  serve [options]                    the simulated API over HTTP, for clients in any language

Run computesim <command> --help for a command's options.

Options:
  -h, --help                         show this help
  -v, --version                      show the version`;

/**
 * Runs the CLI; resolves to the exit code: 0 success, 1 the work failed, 2 the command line was
 * wrong, 3 serve's state file is damaged or unreadable, 4 it is in use by another live server.
 * Output goes through `io` (tests capture it).
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const [command, ...rest] = argv;
    switch (command) {
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        io.out(USAGE);
        return 0;
      case '-v':
      case '--version':
        io.out(version());
        return 0;
      case 'demo':
        return demo(rest, io);
      case 'run':
        return await runCommand(rest, io);
      case 'replay':
        return replay(rest, io);
      case 'compare':
        return await compareCommand(rest, io);
      case 'sweep':
        return await sweepCommand(rest, io);
      case 'fleet':
        return await fleetCommand(rest, io);
      case 'worker':
        return await workerCommand(rest, io);
      case 'serve':
        return await serveCommand(rest, io);
      default:
        throw new UsageError(`unknown command "${command}" (try: computesim --help)`);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.err(`computesim: ${message.split('\n')[0]}`);
    if (error instanceof UsageError) return 2;
    const exitCode = (error as { exitCode?: unknown } | undefined)?.exitCode;
    return typeof exitCode === 'number' ? exitCode : 1;
  }
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}
