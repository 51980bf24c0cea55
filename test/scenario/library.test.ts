/**
 * Every file in scenarios/ is a scenario, a study or a fleet: scenarios run here and their
 * expectations hold (the what-if studies run through `computesim compare` in
 * test/workload/studies.test.ts, the fleet through `computesim fleet` in test/cli/scaleOut.test.ts).
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/index.js';
import { scenarioProblem, type ScenarioDefinition } from '../../src/scenario/scenario.js';
import { fleetProblem } from '../../src/study/fleet.js';
import { studyProblem } from '../../src/study/study.js';

const dir = new URL('../../scenarios/', import.meta.url);
const library = await Promise.all(
  readdirSync(dir)
    .filter((file) => file.endsWith('.ts'))
    .map(async (file) => {
      const module = (await import(new URL(file, dir).href)) as { default: unknown };
      return { file, definition: module.default };
    }),
);
const scenarios = library.filter(({ definition }) => scenarioProblem(definition) === undefined);

describe('the scenario library', () => {
  it('has scenarios, studies and fleets only, at least two scenarios and two studies', () => {
    for (const { file, definition } of library)
      expect(
        scenarioProblem(definition) === undefined ||
          studyProblem(definition) === undefined ||
          fleetProblem(definition) === undefined,
        `${file} default-exports a scenario, a study or a fleet`,
      ).toBe(true);
    const studies = library.filter(({ definition }) => studyProblem(definition) === undefined);
    expect(scenarios.length).toBeGreaterThanOrEqual(2);
    expect(studies.length).toBeGreaterThanOrEqual(2);
  });

  it.each(scenarios.map(({ file, definition }) => [file, definition] as const))(
    '%s: its expectations hold',
    (_, definition) => {
      const run = runScenario(definition as ScenarioDefinition);
      expect(run.failure).toBeUndefined();
      expect(run.checks).toBeGreaterThan(0);
    },
  );
});
