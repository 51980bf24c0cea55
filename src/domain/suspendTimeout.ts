/**
 * Scale-to-zero timeout rules: `0` means the profile default, `-1` never suspends, otherwise seconds.
 */
import type { Profile } from './profile.js';

/** Bounds of an explicit `suspend_timeout_seconds`. */
export const SUSPEND_TIMEOUT_RANGE = { min: 60, max: 604_800 } as const;

/**
 * The effective timeout in milliseconds, or `undefined` when the compute never suspends by itself
 * (`-1`, or a size above the autoscaling range: those computes are always on).
 */
export function suspendTimeoutMs(
  setting: number,
  maxCu: number,
  profile: Profile,
): number | undefined {
  if (setting === -1 || maxCu > profile.limits.autoscalingMaxCu) return undefined;
  const seconds = setting === 0 ? profile.defaultSuspendTimeoutSeconds : setting;
  return seconds * 1_000;
}
