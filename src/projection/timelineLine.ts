/**
 * Formats a narrated line: virtual time since the start (or as UTC), then the text.
 */
import { formatInstant } from '../core/instant.js';
import { DAY_MS } from '../core/duration.js';

/** `+00:05:06.701  text`, time relative to `start`. */
export function timelineLine(at: number, start: number, text: string): string {
  return `${relativeClock(at - start)}  ${text}`;
}

/** `hh:mm:ss.mmm` since the start, with days as `Nd ` when needed. */
export function relativeClock(ms: number): string {
  const days = Math.floor(ms / DAY_MS);
  const rest = ms - days * DAY_MS;
  const clock = formatInstant(rest).slice(11, 19);
  const millis = String(rest % 1000).padStart(3, '0');
  return `+${days > 0 ? `${days}d ` : ''}${clock}.${millis}`;
}
