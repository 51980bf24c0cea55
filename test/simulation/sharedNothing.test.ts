/**
 * Simulations in one process share nothing that changes what they do or answer: what is kept
 * process-wide (the route trie, the formatted-date memo, shared frozen effects, the public schema,
 * the compiled event decoders and the parsed JSON values of logs) is the same for every run. Two runs played step by step in turn, with different seeds, start days
 * and profiles, give the logs and answers each gives alone.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation, type SimulationOptions } from '../../src/index.js';
import { TimelineWorld, timeline, withFaults, type Timeline } from '../../src/testing/index.js';

interface Run {
  readonly sim: Simulation;
  readonly world: TimelineWorld;
}

function start(t: Timeline, start: string): Run {
  const options: SimulationOptions = withFaults({ seed: t.seed, start }, t.faults);
  const sim = new Simulation(options);
  return { sim, world: new TimelineWorld(sim, t.steps) };
}

/** Plays the next due step of `run`; false once it has none left. */
function step(run: Run): boolean {
  const due = run.world.nextDue;
  if (due === undefined) return false;
  if (due > run.sim.now()) run.sim.advanceTo(due);
  run.world.runDue();
  return true;
}

function outcome(run: Run): { log: string; answers: string } {
  run.sim.advance('1h');
  return { log: run.sim.toJSONL(), answers: JSON.stringify(run.world.answers) };
}

describe('simulations in one process', () => {
  it('played in turn, give what each gives alone', () => {
    fc.assert(
      fc.property(
        timeline({ minSteps: 10, maxSteps: 30 }),
        timeline({ minSteps: 10, maxSteps: 30 }),
        (a, b) => {
          const alone = (t: Timeline, at: string) => {
            const run = start(t, at);
            while (step(run));
            return outcome(run);
          };
          const aliceAlone = alone(a, '2026-01-05T00:00:00Z');
          const bobAlone = alone(b, '2026-01-06T23:58:00Z');
          const alice = start(a, '2026-01-05T00:00:00Z');
          const bob = start(b, '2026-01-06T23:58:00Z');
          let more = true;
          while (more) more = [step(alice), step(bob)].some(Boolean);
          expect(outcome(alice)).toEqual(aliceAlone);
          expect(outcome(bob)).toEqual(bobAlone);
        },
      ),
      { numRuns: 15, seed: 23 },
    );
  });
});
