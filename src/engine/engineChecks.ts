/**
 * What the engine refuses and how it says so: the checks of the instants its calls are given, and
 * the errors its run calls throw when they give up. Instants in messages are ISO text.
 */
import { formatDuration } from '../core/duration.js';
import { LAST_INSTANT } from '../core/instant.js';
import { ClockError, LogUnavailableError, StepLimitError } from './errors.js';
import type { EventLog } from './eventLog.js';
import type { LoggedEvent } from './loggedEvent.js';

/** Throws `ClockError` unless `t` is a whole instant a run call (`verb`) may move the clock to from `now`. */
export function checkTarget(t: number, verb: string, now: number): void {
  if (!Number.isSafeInteger(t)) throw new ClockError(`${verb}: ${String(t)} is not whole epoch ms`);
  if (t > LAST_INSTANT)
    throw new ClockError(
      `${verb}: ${String(t)} is past the last instant a simulation can reach (${iso(LAST_INSTANT)})`,
    );
  if (t < now)
    throw new ClockError(
      `${verb}: ${iso(t)} is before now (${iso(now)}); virtual time never goes back`,
    );
}

/**
 * Throws unless `stateAt` can answer for `t`: a whole instant from `start` to `now`, and no earlier
 * than the last event when `log` keeps no events to rebuild it from.
 */
export function checkStateAt(
  t: number,
  start: number,
  now: number,
  log: EventLog<LoggedEvent>,
): void {
  if (!Number.isSafeInteger(t)) throw new ClockError(`stateAt: ${String(t)} is not whole epoch ms`);
  if (t < start)
    throw new ClockError(`stateAt: ${iso(t)} is before the simulation started (${iso(start)})`);
  if (t > now) throw new ClockError(`stateAt: ${iso(t)} is in the future (now ${iso(now)})`);
  if (!log.keepsEvents && t < log.lastAt)
    throw new LogUnavailableError(
      `stateAt: ${iso(t)} is before the last event, and this simulation keeps no log in memory ` +
        "to rebuild it from (it streams its log or keeps none); use log: 'memory', or replay the streamed file",
    );
}

/** The error of a run call (`verb`) that fired `limit` timers without finishing. */
export function stepLimitError(
  verb: string,
  limit: number,
  now: number,
  pending: number,
): StepLimitError {
  return new StepLimitError(
    `${verb}: fired ${limit} timers without finishing (virtual time ${iso(now)}, ${pending} pending). ` +
      'A timer may re-arm itself forever; raise stepLimit if the run is simply long.',
  );
}

/** The error of `runUntil` when its condition is still false and nothing it waits for is pending. */
export function stillFalseError(pending: number, now: number): StepLimitError {
  const what =
    pending === 0
      ? 'no work is pending'
      : 'only background work is pending (pass background: true to wait for it)';
  return new StepLimitError(
    `runUntil: the condition is still false and ${what} (virtual time ${iso(now)})`,
  );
}

/** The error of `runUntilIdle` when foreground work outlasts `within` ms of virtual time. */
export function unsettledError(within: number, now: number, foreground: number): StepLimitError {
  return new StepLimitError(
    `runUntilIdle: still busy after ${formatDuration(within)} of virtual time ` +
      `(now ${iso(now)}, ${foreground} foreground timers pending): ` +
      'work that never settles, such as availability checks waking computes more often ' +
      'than they suspend or an operation that keeps failing. Use advance() for a fixed ' +
      'span, or pass { within } to wait longer.',
  );
}

/** An instant in epoch ms as ISO text (as it is when it is not finite). */
export function iso(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
}
