/**
 * What a study is: a world built on a fresh simulation (projects, computes, workloads), run for a
 * span under one configuration and measured. A study file for the command line default-exports a
 * `defineStudy(...)`: a name, the configurations `compare` sets side by side, and optionally the
 * grid `sweep` walks.
 */
import type { Duration } from '../core/duration.js';
import type { Instant } from '../core/instant.js';
import type { ProfileOverrides } from '../domain/profile.js';
import type { Simulation } from '../simulation/simulation.js';
import type { DefinitionKind } from '../files/loadDefinition.js';
import { settingsProblem } from '../files/settingsProblem.js';

/** One configuration of a study: a name, profile overrides, and anything the study reads. */
export interface Configuration<P = unknown> {
  readonly name: string;
  readonly profile?: ProfileOverrides;
  /** Study-specific settings (for example the compute settings to create), passed to `setup`. */
  readonly params?: P;
}

/** A study to run under each configuration. */
export interface Study<P = unknown> {
  readonly seed?: number;
  readonly start?: Instant;
  /** How long each run lasts after setup. */
  readonly duration: Duration;
  /** Builds the world and attaches workloads (the same calls for every configuration). */
  readonly setup: (sim: Simulation, configuration: Configuration<P>) => void;
  readonly pricePerCuHour?: number;
  /** Profile overrides a configuration's params call for (laid under its own `profile`). */
  readonly profileFor?: (params: P) => ProfileOverrides;
}

/** A parameter value a sweep can vary (and a command line can give). */
export type ParamValue = number | string | boolean;

/** Parameters of a sweepable study: a flat record of named values. */
export type Params = Readonly<Record<string, ParamValue>>;

/** A study with a name and its configurations, as a study file default-exports it. */
export interface StudyDefinition<P = unknown> extends Study<P> {
  /** Short name, used in outputs (letters, digits, `-`, `_`). */
  readonly name: string;
  /** One line on what the study asks. */
  readonly description?: string;
  /** What `compare` runs side by side, the first being the baseline. At least one. */
  readonly configurations: readonly Configuration<P>[];
  /**
   * What `sweep` walks: values per parameter; every combination is a point, its params the
   * baseline's with the point's values laid over them. Without a grid, a sweep runs the
   * configurations. Only for studies whose params are a flat record of numbers, strings, booleans.
   */
  readonly grid?: { readonly [K in keyof P]?: readonly P[K][] };
}

/** Declares a study (checks it, so a mistake shows when the file loads, not halfway through a sweep). */
export function defineStudy<P>(definition: StudyDefinition<P>): StudyDefinition<P> {
  const problem = studyProblem(definition);
  if (problem !== undefined) throw new TypeError(`defineStudy: ${problem}`);
  return definition;
}

/** What is wrong with a value meant to be a study definition, or `undefined`. */
export function studyProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'a study must be an object';
  const study = value as Partial<StudyDefinition<unknown>>;
  if (typeof study.name !== 'string' || !/^[\w-]+$/.test(study.name))
    return `name must be letters, digits, "-" or "_", got ${JSON.stringify(study.name)}`;
  if (typeof study.setup !== 'function') return 'setup must be a function (sim, configuration)';
  if (study.duration === undefined) return 'duration is required (a duration like "7d")';
  const settings = settingsProblem(study);
  if (settings !== undefined) return settings;
  if (
    study.pricePerCuHour !== undefined &&
    !(Number.isFinite(study.pricePerCuHour) && study.pricePerCuHour >= 0)
  )
    return `pricePerCuHour must be a number ≥ 0, got ${JSON.stringify(study.pricePerCuHour)}`;
  if (!Array.isArray(study.configurations) || study.configurations.length === 0)
    return 'configurations must list at least one { name, params?, profile? }';
  const names = study.configurations.map((c: Configuration<unknown>) => c?.name);
  if (names.some((n) => typeof n !== 'string' || n === ''))
    return 'every configuration needs a name';
  if (new Set(names).size !== names.length) return 'configuration names must be unique';
  for (const configuration of study.configurations) {
    const profile = settingsProblem({ profile: configuration.profile });
    if (profile !== undefined) return `configuration "${configuration.name}": ${profile}`;
  }
  if (study.grid !== undefined) return gridProblem(study.grid);
  return undefined;
}

function gridProblem(grid: unknown): string | undefined {
  if (typeof grid !== 'object' || grid === null || Array.isArray(grid))
    return 'grid must map parameter names to lists of values';
  for (const [name, values] of Object.entries(grid)) {
    if (!Array.isArray(values) || values.length === 0)
      return `grid.${name} must be a non-empty list of values`;
    const bad = values.find((v: unknown) => !isParamValue(v));
    if (bad !== undefined || values.some((v: unknown) => !isParamValue(v)))
      return `grid.${name} may hold numbers, strings and booleans only, got ${JSON.stringify(bad)}`;
    if (new Set(values).size !== values.length) return `grid.${name} repeats a value`;
  }
  return undefined;
}

/** A finite number, a string or a boolean. */
export function isParamValue(value: unknown): value is ParamValue {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/** How study files are recognised (for `loadDefinition`). */
export const STUDY_FILE: DefinitionKind<StudyDefinition<unknown>> = {
  noun: 'study',
  define: 'defineStudy',
  problem: studyProblem,
};
