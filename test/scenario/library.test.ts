/**
 * Every file in scenarios/ is a scenario or a study: scenarios run here and their expectations hold
 * (the what-if studies run through `computesim compare` in test/workload/studies.test.ts).
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/index.js';
import { scenarioProblem, type ScenarioDefinition } from '../../src/scenario/scenario.js';
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
  it('has scenarios and studies only, at least two of each', () => {
    for (const { file, definition } of library)
      expect(
        scenarioProblem(definition) === undefined || studyProblem(definition) === undefined,
        `${file} default-exports a scenario or a study`,
      ).toBe(true);
    expect(scenarios.length).toBeGreaterThanOrEqual(2);
    expect(library.length - scenarios.length).toBeGreaterThanOrEqual(2);
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
