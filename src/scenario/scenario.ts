/**
 * What a scenario is: a named, seeded timeline for teaching, demos and reproducible checks. Its
 * script schedules steps (requests, connections, workloads, notes, expectations) at virtual times;
 * the runner plays them and narrates everything that happens in between.
 */
import type { Duration } from '../core/duration.js';
import type { Instant } from '../core/instant.js';
import type { ProfileChoice } from '../domain/profile.js';
import type { DefinitionKind } from '../definitions/loadDefinition.js';
import { settingsProblem } from '../definitions/settingsProblem.js';
import type { ScenarioScript } from './scenarioScript.js';

/** A scenario, as a scenario file default-exports it. */
export interface ScenarioDefinition {
  /** Short name (letters, digits, `-`, `_`). */
  readonly name: string;
  /** One line on what it shows. */
  readonly description?: string;
  /** Seed of the run (default 1); the command line can change it. */
  readonly seed?: number;
  /** Virtual start instant (default: the simulation default, 2026-01-05T00:00:00Z). */
  readonly start?: Instant;
  /** Profile overrides, or a named profile (`'current'`: the real service today). */
  readonly profile?: ProfileChoice;
  /**
   * How long the scenario lasts. Without it, the run ends once the last step has run and nothing
   * is left to do (no operation running, no client waiting); workloads need one. Steps scheduled
   * with `at` (and operation waits) past the end fail the run; `every` ticks simply stop.
   */
  readonly duration?: Duration;
  /** Schedules the steps; called once, at the start instant. */
  readonly script: (s: ScenarioScript) => void;
}

/** Declares a scenario (checks it, so a mistake shows when the file loads). */
export function defineScenario(definition: ScenarioDefinition): ScenarioDefinition {
  const problem = scenarioProblem(definition);
  if (problem !== undefined) throw new TypeError(`defineScenario: ${problem}`);
  return definition;
}

/** What is wrong with a value meant to be a scenario definition, or `undefined`. */
export function scenarioProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'a scenario must be an object';
  const scenario = value as Partial<ScenarioDefinition>;
  if (typeof scenario.name !== 'string' || !/^[\w-]+$/.test(scenario.name))
    return `name must be letters, digits, "-" or "_", got ${JSON.stringify(scenario.name)}`;
  if (typeof scenario.script !== 'function')
    return 'configurations' in scenario && 'setup' in scenario
      ? 'it is a study (defineStudy): run it with computesim compare or computesim sweep'
      : 'script must be a function (s) => { … }';
  return settingsProblem(scenario);
}

/** How scenario files are recognised (for `loadDefinition`). */
export const SCENARIO_FILE: DefinitionKind<ScenarioDefinition> = {
  noun: 'scenario',
  define: 'defineScenario',
  importFrom: 'computesim',
  problem: scenarioProblem,
};
