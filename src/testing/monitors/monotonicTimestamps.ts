/**
 * Monitor: virtual time never goes back, and log positions follow each other without gaps.
 */
import type { Monitor } from './monitor.js';

/** Fires on an event earlier than the one before it, or out of sequence. */
export function monotonicTimestamps(): Monitor {
  // The previous event's time and position as two numbers: no object per event.
  let seen = false;
  let lastAt = 0;
  let lastSeq = 0;
  return {
    name: 'monotonicTimestamps',
    observe(event) {
      const previousAt = lastAt;
      const previousSeq = lastSeq;
      lastAt = event.at;
      lastSeq = event.seq;
      if (!seen) {
        seen = true;
        return undefined;
      }
      if (event.at < previousAt)
        return `time went back: event ${event.seq} at ${event.at} after ${previousAt}`;
      if (event.seq !== previousSeq + 1) return `log position ${event.seq} follows ${previousSeq}`;
      return undefined;
    },
  };
}
