/**
 * What a study is: a world built on a fresh simulation (projects, computes, workloads), run for a
 * span under one configuration and measured. A study file for the command line default-exports a
 * `defineStudy(...)`: a name, the configurations `compare` sets side by side, and optionally the
 * grid `sweep` walks.
 */
import type { Duration } from '../core/duration.js';
import type { Instant } from '../core/instant.js';
import { PROFILE_SCHEMA, type ProfileOverrides } from '../domain/profile.js';
import type { Simulation } from '../simulation/simulation.js';
import type { DefinitionKind } from '../definitions/loadDefinition.js';
import { z } from 'zod';
import { nonNegative, parseInput, satisfying, strictObject } from '../core/schema.js';
import { RUN_SETTINGS_SHAPE } from '../definitions/settingsProblem.js';

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
  /**
   * Builds the world and attaches workloads (the same calls for every configuration). The run is
   * measured as it goes and keeps no log (`log: 'none'`), so `sim.stateAt` answers only for the
   * present.
   */
  readonly setup: (sim: Simulation, configuration: Configuration<P>) => void;
  readonly pricePerCuHour?: number;
  /** Profile overrides a configuration's params call for (laid under its own `profile`). */
  readonly profileFor?: (params: P) => ProfileOverrides;
}

/** A parameter value a sweep can vary (and a command line can give). */
export type ParamValue = number | string | boolean;

/** Parameters of a sweepable study: a flat record of named values. */
export type Params = Readonly<Record<string, ParamValue>>;

/**
 * How a parameter reads in a sweep report's figure: its unit on the axis (`s`, `CU`), and names
 * for values that stand for something rather than a quantity (`{ '-1': 'never' }`), drawn as
 * named points, not on one scale. Tables and CSV keep the values as they are.
 */
export interface ParamLabel {
  readonly unit?: string;
  /** Names by value, the value written as text (`'-1'`, `'true'`). */
  readonly values?: Readonly<Record<string, string>>;
}

/** A study with a name and its configurations, as a study file default-exports it. */
export interface StudyDefinition<P = unknown> extends Study<P> {
  /** Short name, used in outputs (letters, digits, `-`, `_`). */
  readonly name: string;
  /**
   * One line on what the study asks, not for how long: the commands print it with the span they
   * ran, which `--duration` changes (and a sweep's points are its grid, not its configurations).
   */
  readonly description?: string;
  /** What `compare` runs side by side, the first being the baseline. At least one. */
  readonly configurations: readonly Configuration<P>[];
  /**
   * What `sweep` walks: values per parameter; every combination is a point, its params the
   * baseline's with the point's values laid over them. Without a grid, a sweep runs the
   * configurations. Only for studies whose params are a flat record of numbers, strings, booleans.
   */
  readonly grid?: { readonly [K in keyof P]?: readonly P[K][] };
  /** How parameters read in the sweep report's figure: units, and names for values (`-1` → `never`). */
  readonly paramLabels?: { readonly [K in keyof P]?: ParamLabel };
}

const isFunction = (value: unknown) => typeof value === 'function';

/** A study definition as checked when it is declared or loaded: strict at every depth but params. */
const studySchema = strictObject({
  name: satisfying<string>(
    (name) => typeof name === 'string' && /^[\w-]+$/.test(name),
    (name) => `must be letters, digits, "-" or "_", got ${JSON.stringify(name)}`,
  ),
  description: z.string().optional(),
  setup: satisfying<unknown>(isFunction, 'must be a function (sim, configuration)'),
  duration: RUN_SETTINGS_SHAPE.duration.refine((d) => d !== undefined, {
    error: 'is required (a duration like "7d")',
    when: () => true,
  }),
  seed: RUN_SETTINGS_SHAPE.seed,
  start: RUN_SETTINGS_SHAPE.start,
  pricePerCuHour: nonNegative('must be a number ≥ 0').optional(),
  profileFor: satisfying<unknown>(isFunction, 'must be a function (params) => profile').optional(),
  configurations: z
    .array(
      strictObject({
        name: satisfying<string>(
          (name) => typeof name === 'string' && name !== '',
          'must be a non-empty string',
        ),
        profile: PROFILE_SCHEMA.optional(),
        /** Study-specific: checked by the study itself. */
        params: z.unknown().optional(),
      }),
      { error: 'must list at least one { name, params?, profile? }' },
    )
    .min(1, { error: 'must list at least one { name, params?, profile? }' })
    .check((context) => {
      const names = context.value.map((c) => c.name);
      if (new Set(names).size !== names.length)
        context.issues.push({
          code: 'custom',
          message: 'must have unique names',
          input: context.value,
        });
    }),
  grid: z
    .record(
      z.string(),
      z
        .array(
          satisfying<ParamValue>(
            isParamValue,
            (value) => `may hold numbers, strings and booleans only, got ${JSON.stringify(value)}`,
          ),
          { error: 'must be a non-empty list of values' },
        )
        .min(1, { error: 'must be a non-empty list of values' })
        .check((context) => {
          if (new Set(context.value).size !== context.value.length)
            context.issues.push({
              code: 'custom',
              message: 'repeats a value',
              input: context.value,
            });
        }),
      { error: 'must map parameter names to lists of values' },
    )
    .optional(),
  paramLabels: z
    .record(
      z.string(),
      strictObject({
        unit: z.string().optional(),
        values: z.record(z.string(), z.string()).optional(),
      }),
    )
    .optional(),
});

/** Declares a study (checks it, so a mistake shows when the file loads, not halfway through a sweep). */
export function defineStudy<P>(definition: StudyDefinition<P>): StudyDefinition<P> {
  const problem = studyProblem(definition);
  if (problem !== undefined) throw new TypeError(`defineStudy: ${problem}`);
  return definition;
}

/**
 * What is wrong with a value meant to be a study definition, or `undefined`: one line naming the
 * path (`configurations[1].profile.autoscaling: unknown field "minCu" (known: …)`).
 */
export function studyProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'a study must be an object';
  const parsed = parseInput(studySchema, value, '');
  return parsed.ok ? undefined : parsed.error;
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
  importFrom: 'computesim/studies',
  problem: studyProblem,
};
