/**
 * Checks the settings scenario and study definitions share (seed, start, duration, profile), so a
 * mistake in a file is reported when it loads, naming the setting, rather than as a crash mid-run.
 */
import { z } from 'zod';
import { durationMs, instantMs, parseInput, satisfying } from '../core/schema.js';
import { PROFILE_NAMES, PROFILE_SCHEMA } from '../domain/profile.js';

/** The shared settings of a definition: one schema for scenarios and studies. */
export const RUN_SETTINGS_SHAPE = {
  seed: satisfying<number>(
    (seed) => Number.isSafeInteger(seed),
    (seed) => `must be a whole number, got ${JSON.stringify(seed)}`,
  ).optional(),
  start: instantMs.optional(),
  duration: durationMs.optional(),
  /** Overrides, or the name of a profile (`'current'`). */
  profile: z
    .preprocess(
      (value) =>
        typeof value === 'string' && (PROFILE_NAMES as readonly string[]).includes(value)
          ? { base: value }
          : value,
      PROFILE_SCHEMA,
    )
    .optional(),
};

const runSettingsSchema = z.looseObject(RUN_SETTINGS_SHAPE);

/** The shared settings of a definition, as found in a file (unchecked). */
export interface RunSettings {
  readonly seed?: unknown;
  readonly start?: unknown;
  readonly duration?: unknown;
  readonly profile?: unknown;
}

/** What is wrong with the settings, or `undefined` (one line naming the setting's path). */
export function settingsProblem(settings: RunSettings): string | undefined {
  const parsed = parseInput(runSettingsSchema, settings, '');
  return parsed.ok ? undefined : parsed.error;
}
