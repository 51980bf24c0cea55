/**
 * `computesim demo`: the built-in quickstart scenario, narrated.
 */
import { runText } from '../../report/runText.js';
import { quickstartScenario } from '../../scenario/quickstart.js';
import { runScenario } from '../../scenario/runScenario.js';
import { parseCommand, wholeNumber } from '../args.js';
import type { CliIo } from '../io.js';

/** Help of the demo command. */
const DEMO_HELP = `Usage: computesim demo [--seed N]

Runs the quickstart scenario: create a project, poll its operations every 5 s of virtual time, then
watch the compute scale to zero. Same seed, same output.

Options:
  --seed N     seed of the run (default 42)`;

/** Runs the demo command. */
export function demo(argv: readonly string[], io: CliIo): number {
  const { values, help } = parseCommand(argv, { seed: { type: 'string' } }, 0, 'no arguments');
  if (help) {
    io.out(DEMO_HELP);
    return 0;
  }
  const seed = values.seed === undefined ? undefined : wholeNumber('--seed', values.seed);
  const run = runScenario(quickstartScenario, seed === undefined ? {} : { seed });
  for (const line of runText(run, io.color === true)) io.out(line);
  return run.passed ? 0 : 1;
}
