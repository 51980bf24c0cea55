/** How the page writes virtual times: the clock, time since the run's start, a feed line's time. */

const DAY_MS = 86_400_000;

/** `+1d 02:03:04`: time since the run's start (days only when there are some). */
export function sinceStart(ms: number): string {
  const days = Math.floor(ms / DAY_MS);
  const rest = ms - days * DAY_MS;
  const clock = [
    Math.floor(rest / 3_600_000),
    Math.floor(rest / 60_000) % 60,
    Math.floor(rest / 1000) % 60,
  ];
  return `+${days > 0 ? `${days}d ` : ''}${clock.map(twoDigits).join(':')}`;
}

/** `2026-01-05 09:00:00Z` (with milliseconds only when there are some). */
export function clockText(now: number): string {
  return new Date(now).toISOString().replace('T', ' ').replace('.000Z', 'Z');
}

/** A feed line's time: since the run's start, or the time of day until the start is known. */
export function lineTime(at: number, start: number | undefined): string {
  return start === undefined ? new Date(at).toISOString().slice(11, 19) : sinceStart(at - start);
}

function twoDigits(n: number): string {
  return String(n).padStart(2, '0');
}
