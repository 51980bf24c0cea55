/**
 * Determinism self-check: run the same thing twice with one seed and compare the event logs line by
 * line. Any difference (wall clock, ambient randomness, iteration order) is reported with the first
 * line where the logs part.
 */
import { LogUnavailableError } from '../core/logUnavailableError.js';
import type { Simulation } from '../simulation/simulation.js';

/** Where two logs first differ: the 1-based line and both lines (undefined past a log's end). */
export interface Divergence {
  readonly line: number;
  readonly first?: string;
  readonly second?: string;
}

/** Thrown by `assertDeterministic`. */
export class DeterminismError extends Error {
  constructor(
    readonly seed: number,
    readonly divergence: Divergence,
  ) {
    super(
      `two runs with seed ${seed} diverged at log line ${divergence.line}:\n` +
        `  first:  ${divergence.first ?? '(log ended)'}\n` +
        `  second: ${divergence.second ?? '(log ended)'}`,
    );
    this.name = 'DeterminismError';
  }
}

/** The first line where two JSON Lines logs differ, or undefined when they are identical. */
export function firstDivergence(first: string, second: string): Divergence | undefined {
  if (first === second) return undefined;
  const a = first.split('\n');
  const b = second.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i])
      return {
        line: i + 1,
        ...(a[i] === undefined ? {} : { first: a[i] }),
        ...(b[i] === undefined ? {} : { second: b[i] }),
      };
  }
  return undefined;
}

/** Something that ran on a simulation: the simulation itself, or a result holding it. */
export type SimulationRun = Simulation | { readonly sim: Simulation };

/**
 * Runs `run(seed)` twice and throws a `DeterminismError` if the two event logs differ in any byte.
 * Use it inside a property to check that the code under test (and its use of the simulation) is
 * deterministic for every generated input. The runs must keep their logs in memory (the default):
 * one that keeps none is a `LogUnavailableError`.
 */
export async function assertDeterministic(
  run: (seed: number) => SimulationRun | Promise<SimulationRun>,
  seed: number,
): Promise<void> {
  const logOf = async () => {
    const result = await run(seed);
    const sim = 'sim' in result ? result.sim : result;
    if (!sim.log.keepsEvents)
      throw new LogUnavailableError(
        "assertDeterministic compares the two runs' event logs, and this run keeps none in memory " +
          "(log: 'none', or streamed to a file): run it with log: 'memory'",
      );
    return sim.toJSONL();
  };
  const divergence = firstDivergence(await logOf(), await logOf());
  if (divergence !== undefined) throw new DeterminismError(seed, divergence);
}
