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
import { SPAN_PHRASE } from '../support/spanPhrase.js';

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

  it('describes its studies and fleets without a span or a count, which options change', () => {
    // The commands print a description above the span (and count) they ran: `--duration 1d` under
    // "for a week" told the reader two different things.
    const described = library.filter(
      ({ definition }) =>
        studyProblem(definition) === undefined || fleetProblem(definition) === undefined,
    );
    expect(described.length).toBeGreaterThanOrEqual(3);
    for (const { file, definition } of described) {
      const { description, projects } = definition as { description?: string; projects?: number };
      expect(description, file).not.toMatch(SPAN_PHRASE);
      if (projects !== undefined)
        expect(description, file).not.toContain(projects.toLocaleString('en-US'));
    }
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
