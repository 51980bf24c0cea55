/**
 * Checks the settings scenario and study definitions share (seed, start, duration, profile), so a
 * mistake in a file is reported when it loads, naming the setting, rather than as a crash mid-run.
 */
import { tryParseDuration } from '../core/duration.js';
import { tryParseInstant } from '../core/instant.js';
import { resolveProfile } from '../domain/profile.js';

/** The shared settings of a definition, as found in a file (unchecked). */
export interface RunSettings {
  readonly seed?: unknown;
  readonly start?: unknown;
  readonly duration?: unknown;
  readonly profile?: unknown;
}

/** What is wrong with the settings, or `undefined`. */
export function settingsProblem(settings: RunSettings): string | undefined {
  if (settings.seed !== undefined && !Number.isSafeInteger(settings.seed))
    return `seed must be a whole number, got ${JSON.stringify(settings.seed)}`;
  if (settings.start !== undefined) {
    const start = tryParseInstant(settings.start as string | number);
    if (!start.ok) return `start: ${start.error}`;
  }
  if (settings.duration !== undefined) {
    const duration = tryParseDuration(settings.duration as string | number);
    if (!duration.ok) return `duration: ${duration.error}`;
  }
  if (settings.profile !== undefined) {
    const profile = resolveProfile(settings.profile);
    if (!profile.ok) return profile.error;
  }
  return undefined;
}
