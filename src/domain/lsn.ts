/**
 * Log sequence numbers (LSNs), modelled simply: every branch has a timeline that starts at an LSN at
 * an instant (its creation, or its last restore) and whose head advances with virtual time at a fixed
 * rate, whether or not anything writes. So an instant and an LSN on a timeline convert into each
 * other exactly, and a point in a branch's history can be named by either, as the public API allows.
 * (The real WAL advances with writes; no spec gives a rate. This is a documented simulator choice.)
 */

/** The LSN a project's first timeline starts at (a fresh cluster has written some WAL already). */
export const INITIAL_LSN = 0x0150_0000;

/** How far the head LSN of a timeline advances per millisecond of virtual time, in bytes. */
const WAL_BYTES_PER_MS = 16;

/** Where a timeline starts: an LSN and the instant (epoch ms) it was at. */
export interface TimelineStart {
  readonly timelineStartLsn: number;
  readonly timelineStartedAt: number;
}

/** The LSN of a timeline at `at` (at or after its start). */
export function lsnAt(timeline: TimelineStart, at: number): number {
  return timeline.timelineStartLsn + (at - timeline.timelineStartedAt) * WAL_BYTES_PER_MS;
}

/** The instant a timeline reached `lsn` (the last whole millisecond at or before it). */
export function instantOfLsn(timeline: TimelineStart, lsn: number): number {
  return (
    timeline.timelineStartedAt + Math.floor((lsn - timeline.timelineStartLsn) / WAL_BYTES_PER_MS)
  );
}

/** An LSN as Postgres writes it: high and low 32 bits in upper-case hex, e.g. `0/1E19478`. */
export function formatLsn(lsn: number): string {
  const high = Math.floor(lsn / 2 ** 32);
  const low = lsn % 2 ** 32;
  return `${high.toString(16).toUpperCase()}/${low.toString(16).toUpperCase()}`;
}

/** Parses `X/Y` (hex halves), or `undefined` when `text` is not an LSN. */
export function parseLsn(text: string): number | undefined {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text);
  if (match === null) return undefined;
  return parseInt(match[1] as string, 16) * 2 ** 32 + parseInt(match[2] as string, 16);
}
