/**
 * Turns a step's `when` into an instant: `'+5m'` after now, `'5m'` after the start, an ISO instant,
 * or epoch milliseconds.
 */
import { err, ok, type Result } from '../core/result.js';
import { tryParseDuration } from '../core/duration.js';
import { tryParseInstant } from '../core/instant.js';
import type { When } from './scenarioScript.js';

/** The instant `when` names, given the current time and the scenario's start. */
export function resolveWhen(when: When, now: number, start: number): Result<number, string> {
  if (typeof when === 'number') return tryParseInstant(when);
  if (typeof when !== 'string')
    return err(`a step time must be a string or a number, got ${typeof when}`);
  if (when.startsWith('+')) {
    const offset = tryParseDuration(when.slice(1));
    return offset.ok ? ok(now + offset.value) : err(offset.error);
  }
  const offset = tryParseDuration(when);
  if (offset.ok) return ok(start + offset.value);
  const instant = tryParseInstant(when);
  return instant.ok
    ? instant
    : err(`"${when}" is neither a time like '+5m' or '5m' nor an ISO instant`);
}
