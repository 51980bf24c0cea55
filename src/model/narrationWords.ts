/**
 * Words the narration of events shares (see the declarations' `narrate` and the narrator).
 */
import { formatDuration } from '../core/duration.js';

/** `396 ms` below a second, `3.9 s` below a minute, then whole units: `20m`, `1h30m`. */
export function seconds(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return formatDuration(Math.round(ms / 1000) * 1000);
}

/** Changed settings as `key value` pairs: `minCu 0.5, maxCu 2`. */
export function describeChanges(changes: Record<string, unknown>): string {
  return Object.entries(changes)
    .map(([key, value]) => `${key} ${JSON.stringify(value)}`)
    .join(', ');
}

/** How long a deletion stays recoverable, said after it (nothing when it is final). */
export function recoverable(at: number, until: number | undefined): string {
  return until === undefined ? '' : ` (recoverable for ${formatDuration(until - at)})`;
}
