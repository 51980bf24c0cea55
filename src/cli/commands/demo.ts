/**
 * `computesim demo`: the quickstart scenario, narrated.
 */
import { quickstart } from '../../scenario/quickstart.js';
import { parseCommand, wholeNumber } from '../args.js';
import type { CliIo } from '../io.js';

/** Help of the demo command. */
export const DEMO_HELP = `Usage: computesim demo [--seed N]

Runs the quickstart: create a project, poll its operations every 5 s of virtual time, then watch
the compute scale to zero. Same seed, same output.

Options:
  --seed N     seed of the run (default 42)`;

/** Runs the demo command. */
export function demo(argv: readonly string[], io: CliIo): number {
  const { values, help } = parseCommand(argv, { seed: { type: 'string' } }, 0, 'no arguments');
  if (help) {
    io.out(DEMO_HELP);
    return 0;
  }
  const seed = values.seed === undefined ? 42 : wholeNumber('--seed', values.seed);
  for (const line of quickstart(seed)) io.out(line);
  return 0;
}
