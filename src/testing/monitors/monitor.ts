/**
 * Invariant monitors: stateful checks fed one logged event at a time, online (from `events$`) or
 * offline (over a log). A monitor answers each event with nothing, or with what went wrong.
 */
import type { SimEvent } from '../../model/events.js';

/** A check over a stream of events. Create a fresh one per run: monitors keep state. */
export interface Monitor {
  /** Short name used in reports, e.g. `oneReadWritePerBranch`. */
  readonly name: string;
  /** Looks at the next event; returns a description of the violation it shows, if any. */
  observe(event: SimEvent): string | undefined;
  /** Called once when the stream ends at virtual time `at`; reports what never happened. */
  finish?(at: number): string | undefined;
}

/**
 * Builds a monitor from a user-supplied check. `check` is called with each event and may keep its
 * own state in the closure; return a message to report a violation.
 */
export function defineMonitor(
  name: string,
  check: (event: SimEvent) => string | undefined,
  finish?: (at: number) => string | undefined,
): Monitor {
  return finish === undefined ? { name, observe: check } : { name, observe: check, finish };
}
