import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runScenario, Simulation, type ScenarioDefinition } from '../../src/index.js';
import {
  faultProfile,
  playTimeline,
  timeline,
  timelineLiteral,
  timelineScenario,
  timelineSteps,
  withFaults,
  type Timeline,
  type TimelineStep,
} from '../../src/testing/index.js';

const SRC = pathToFileURL(join(import.meta.dirname, '../../src')).href;

/** The domain event types of a log, in order (engine bookkeeping left out). */
const shape = (sim: Simulation) =>
  [...sim.log]
    .filter((e) => e.type !== 'ClockAdvanced' && e.type !== 'SimulationStarted')
    .map((e) => e.type);

describe('timelines', () => {
  it('a failing timeline shrinks to one step, no gap and no faults, printed with its literal', () => {
    for (const seed of [1, 2, 3]) {
      const result = fc.check(
        fc.property(timeline(), (t) => !t.steps.some((s) => s.action.kind === 'restart')),
        { seed },
      );
      expect(result.failed).toBe(true);
      const [shrunk] = result.counterexample as [Timeline];
      expect(shrunk.steps).toEqual([{ gapMs: 0, action: { kind: 'restart', compute: 0 } }]);
      expect(shrunk.faults).toEqual({});
      const printed = fc.stringify(shrunk);
      expect(printed).toContain(`seed ${shrunk.seed}`);
      expect(printed).toContain(`{ gapMs: 0, action: { kind: 'restart', compute: 0 } },`);
      expect(printed).toContain(`seed: ${shrunk.seed},`);
    }
  });

  it('a timeline printed as a literal reads back as the same timeline', () => {
    fc.assert(
      fc.property(timeline({ faults: faultProfile({ preset: 'harsh' }) }), (t) => {
        // The literal is what a user pastes into a test: evaluated, it is the timeline again.
        const read = new Function(`return ${timelineLiteral(t, '    ')};`)() as Timeline;
        expect(read).toEqual({ seed: t.seed, faults: t.faults, steps: t.steps });
      }),
      { numRuns: 200 },
    );
  });

  it('the printed scenario replays what playTimeline does', async () => {
    const [t] = fc.sample(timeline({ minSteps: 12, maxSteps: 12, faults: fc.constant({}) }), {
      numRuns: 1,
      seed: 8,
    }) as [Timeline];
    const source = timelineScenario(t, 'replayed')
      .replace(`from 'computesim'`, `from '${SRC}/index.ts'`)
      .replace(`from 'computesim/testing'`, `from '${SRC}/testing/index.ts'`);
    const file = join(mkdtempSync(join(tmpdir(), 'csim-')), 'replayed.ts');
    writeFileSync(file, source);
    const scenario = ((await import(pathToFileURL(file).href)) as { default: ScenarioDefinition })
      .default;
    const run = runScenario(scenario);
    expect(run.failure).toBeUndefined();
    const direct = new Simulation(withFaults({ seed: t.seed }, t.faults));
    playTimeline(direct, t);
    if (direct.now() < run.sim.now()) direct.advance(run.sim.now() - direct.now());
    expect(shape(direct).length).toBeGreaterThan(12);
    expect(shape(run.sim)).toEqual(shape(direct));
  });
});

describe('timeline steps shrinking', () => {
  const steps: TimelineStep[] = [
    { gapMs: 5, action: { kind: 'createProject' } },
    { gapMs: 7, action: { kind: 'restart', compute: 1 } },
    { gapMs: 9, action: { kind: 'suspend', compute: 2 } },
  ];

  it('tries each step alone first, then fast-check’s own shorter lists', () => {
    const candidates = [...timelineSteps().shrink(steps, undefined).take(5)].map((v) => v.value);
    expect(candidates.slice(0, 3)).toEqual(steps.map((step) => [step]));
    expect(candidates[3]).not.toHaveLength(1);
  });

  it('tries each step alone once on a shrink path, not again as another step shrinks', () => {
    const arbitrary = timelineSteps();
    const sameLength = [...arbitrary.shrink(steps, undefined)]
      .slice(steps.length)
      .find((v) => v.value.length === steps.length);
    expect(sameLength).toBeDefined();
    const { value, context } = sameLength as fc.Value<TimelineStep[]>;
    const changed = value.filter((step) => !steps.includes(step));
    expect(changed).toHaveLength(1);
    const next = [...arbitrary.shrink(value, context).take(2)].map((v) => v.value);
    expect(next[0]).toEqual(changed);
    expect(next[1]).not.toHaveLength(1);
  });

  it('shrinks a step tried alone as it would in the list, action included', () => {
    for (const seed of [1, 2, 3]) {
      const result = fc.check(
        fc.property(
          timelineSteps(),
          (list) => !list.some((step) => step.action.kind === 'resize' && step.gapMs > 0),
        ),
        { seed },
      );
      expect(result.counterexample).toEqual([
        [{ gapMs: 1, action: { kind: 'resize', compute: 0, minCu: 0.25, maxCu: 0.25 } }],
      ]);
    }
  });

  it('leaves lists of more than 8 steps to fast-check, and tries 8 alone', () => {
    const many = (count: number): TimelineStep[] =>
      Array.from({ length: count }, (_, i) => ({
        gapMs: i + 1,
        action: { kind: 'createProject' },
      }));
    const first = (list: TimelineStep[]) =>
      [...timelineSteps().shrink(list, undefined).take(list.length)].map((v) => v.value);
    const nine = many(9);
    expect(first(nine)[0]).toEqual([]); // fast-check's own first candidate: the empty list
    const eight = many(8);
    expect(first(eight)).toEqual(eight.map((step) => [step]));
  });

  it('leaves lists that must keep two or more steps to fast-check', () => {
    const candidates = [...timelineSteps({ minSteps: 2 }).shrink(steps, undefined)];
    expect(candidates.every((v) => v.value.length >= 2)).toBe(true);
  });
});
