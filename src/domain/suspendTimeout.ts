/**
 * Scale-to-zero timeout rules: `0` means the profile default, `-1` never suspends, otherwise seconds.
 */
import type { Profile } from './profile.js';

/** Longest wait scale to zero backs off to after suspends that gave up (unless the timeout is longer). */
export const SCALE_TO_ZERO_MAX_BACKOFF_MS = 86_400_000;

/**
 * How long a compute must stay idle before scale to zero suspends it: the timeout, doubled for each
 * suspend that gave up since it was last suspended, up to a day (or the timeout, if longer). An
 * always-failing suspend is then tried a few dozen times a month, not every few minutes.
 */
export function scaleToZeroDelayMs(timeoutMs: number, failedSuspends = 0): number {
  if (failedSuspends === 0) return timeoutMs;
  const cap = Math.max(timeoutMs, SCALE_TO_ZERO_MAX_BACKOFF_MS);
  return Math.min(timeoutMs * 2 ** Math.min(failedSuspends, 32), cap);
}

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
