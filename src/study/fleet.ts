/**
 * What a fleet is: many independent projects, each built by the same function from its index and run
 * in a simulation of its own with a seed of its own, so any range of them can run anywhere (a thread,
 * a shard, a queue worker) and give the same per-project results. A fleet file default-exports a
 * `defineFleet(...)`.
 */
import { z } from 'zod';
import type { Duration } from '../core/duration.js';
import type { Instant } from '../core/instant.js';
import { nonNegative, parseInput, satisfying, strictObject, whole } from '../core/schema.js';
import type { ProfileChoice } from '../domain/profile.js';
import type { DefinitionKind } from '../definitions/loadDefinition.js';
import { RUN_SETTINGS_SHAPE } from '../definitions/settingsProblem.js';
import type { Simulation } from '../simulation/simulation.js';

/** A fleet of independent projects. */
export interface FleetDefinition {
  /** Short name, used in outputs (letters, digits, `-`, `_`). */
  readonly name: string;
  /**
   * One line on what the fleet is, not how many projects or for how long: `computesim fleet` prints
   * it above the count and span it ran, which `--duration` (or the file's own settings) change.
   */
  readonly description?: string;
  /** The fleet's seed; project `i` runs with a seed derived from it and `i` (default 1). */
  readonly seed?: number;
  readonly start?: Instant;
  /** How long every project runs after it is built. */
  readonly duration: Duration;
  /** How many projects (indices `0 … projects - 1`). */
  readonly projects: number;
  /**
   * Builds project `index` on a fresh simulation of its own: the project, its computes, their
   * workloads. It must not depend on any other project.
   */
  readonly project: (sim: Simulation, index: number) => void;
  readonly profile?: ProfileChoice;
  readonly pricePerCuHour?: number;
}

const fleetSchema = strictObject({
  name: satisfying<string>(
    (name) => typeof name === 'string' && /^[\w-]+$/.test(name),
    (name) => `must be letters, digits, "-" or "_", got ${JSON.stringify(name)}`,
  ),
  description: z.string().optional(),
  seed: RUN_SETTINGS_SHAPE.seed,
  start: RUN_SETTINGS_SHAPE.start,
  duration: RUN_SETTINGS_SHAPE.duration.refine((d) => d !== undefined, {
    error: 'is required (a duration like "30d")',
    when: () => true,
  }),
  projects: whole(1, 'must be a whole number ≥ 1'),
  project: satisfying<unknown>(
    (value) => typeof value === 'function',
    'must be a function (sim, index)',
  ),
  profile: RUN_SETTINGS_SHAPE.profile,
  pricePerCuHour: nonNegative('must be a number ≥ 0').optional(),
});

/** What is wrong with a value meant to be a fleet definition, or `undefined` (one line). */
export function fleetProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'a fleet must be an object';
  const parsed = parseInput(fleetSchema, value, '');
  return parsed.ok ? undefined : parsed.error;
}

/** Declares a fleet (checks it, so a mistake shows when the file loads). */
export function defineFleet(definition: FleetDefinition): FleetDefinition {
  const problem = fleetProblem(definition);
  if (problem !== undefined) throw new TypeError(`defineFleet: ${problem}`);
  return definition;
}

/** How fleet files are recognised (for `loadDefinition`). */
export const FLEET_FILE: DefinitionKind<FleetDefinition> = {
  noun: 'fleet',
  define: 'defineFleet',
  importFrom: 'computesim/studies',
  problem: fleetProblem,
};
