/**
 * What a failing client property says: who failed the run and why, the world it ran in, and a
 * vitest test that replays it, printed to be pasted beside the property (it calls the property by
 * its name with the world as a literal, so it runs the same setup and client and fails the same way
 * until the client is fixed, then stays as a regression test).
 */
import type fc from 'fast-check';
import type { ClientVerdict } from './clientVerdict.js';
import { formatTimeline } from './timeline/formatTimeline.js';
import type { Timeline } from './timeline/timeline.js';
import { timelineLiteral } from './timeline/timelineLiteral.js';

/** The test that replays `world` on the property called `name`, as source to paste. */
export function replayTest(name: string, world: Timeline, labels: readonly string[]): string {
  const why = labels.length === 0 ? '' : ` (${labels.join(', ')})`;
  return [
    `it('${name} replays a counterexample${why}', async () => {`,
    `  await ${name}.replay(${timelineLiteral(world, '  ')});`,
    `});`,
  ].join('\n');
}

/** The body of a failure's message: what failed, the world, and its replay. */
function failureText(name: string, world: Timeline, verdict: ClientVerdict): string {
  return [
    verdict.message,
    '',
    `the world it ran in:`,
    formatTimeline(world),
    '',
    `Replay it: paste this test beside \`${name}\` (with \`it\` from vitest); it fails the same way until the client is fixed:`,
    '',
    replayTest(name, world, verdict.labels),
  ].join('\n');
}

/** One run of a client property failed: the verdict, and the test that replays it. */
export class ClientPropertyError extends Error {
  /** The test that replays the run, as source. */
  readonly replay: string;

  constructor(
    readonly property: string,
    readonly world: Timeline,
    readonly verdict: ClientVerdict,
    header = `${property} failed: ${verdict.labels.join(', ')}`,
  ) {
    super(`${header}\n${failureText(property, world, verdict)}`);
    this.name = 'ClientPropertyError';
    this.replay = replayTest(property, world, verdict.labels);
  }
}

/** A client property failed in some run: the shrunk run's verdict, world and replay. */
export class CounterexampleError extends ClientPropertyError {
  constructor(
    property: string,
    world: Timeline,
    verdict: ClientVerdict,
    details: Pick<fc.RunDetails<[Timeline]>, 'numRuns' | 'numShrinks' | 'seed'>,
  ) {
    const runs = `${details.numRuns} run${details.numRuns === 1 ? '' : 's'}`;
    const shrinks = `shrunk ${details.numShrinks} time${details.numShrinks === 1 ? '' : 's'}`;
    super(
      property,
      world,
      verdict,
      `${property} failed after ${runs} (fast-check seed ${details.seed}, ${shrinks}): ${verdict.labels.join(', ')}`,
    );
    this.name = 'CounterexampleError';
  }
}
