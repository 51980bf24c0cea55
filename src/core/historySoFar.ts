/**
 * What a follower starting on a run now (a projection, a monitor watch) reads of the events the run
 * has recorded already, before it listens to the events to come.
 */
import { LogUnavailableError } from './logUnavailableError.js';

/** The part of a run's log a follower reads: its length, its first event, its events when kept. */
export interface RecordedLog<E> {
  readonly length: number;
  readonly header?: E | undefined;
}

/**
 * The events `log` holds so far: its header alone while nothing followed it, every event when the
 * log keeps them; otherwise the history `follower` needs is gone, and it is refused.
 */
export function historySoFar<E>(log: RecordedLog<E>, follower: string): Iterable<E> {
  if (log.length <= 1) return log.header === undefined ? [] : [log.header];
  if (keepsItsEvents(log)) return log;
  throw new LogUnavailableError(
    `${follower} needs the ${log.length} events this run has recorded, and its log does not keep them: ` +
      "start it before the run's first step, or keep the log in memory (log: 'memory')",
  );
}

function keepsItsEvents<E>(
  log: RecordedLog<E>,
): log is RecordedLog<E> & Iterable<E> & { readonly keepsEvents: true } {
  return Symbol.iterator in log && (log as { keepsEvents?: unknown }).keepsEvents === true;
}
