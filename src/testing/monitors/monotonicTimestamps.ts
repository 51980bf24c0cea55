/**
 * Monitor: virtual time never goes back, and log positions follow each other without gaps.
 */
import type { Monitor } from './monitor.js';

/** Fires on an event earlier than the one before it, or out of sequence. */
export function monotonicTimestamps(): Monitor {
  let last: { at: number; seq: number } | undefined;
  return {
    name: 'monotonicTimestamps',
    observe(event) {
      const previous = last;
      last = { at: event.at, seq: event.seq };
      if (previous === undefined) return undefined;
      if (event.at < previous.at)
        return `time went back: event ${event.seq} at ${event.at} after ${previous.at}`;
      if (event.seq !== previous.seq + 1)
        return `log position ${event.seq} follows ${previous.seq}`;
      return undefined;
    },
  };
}
