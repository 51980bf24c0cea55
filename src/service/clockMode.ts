/**
 * How a served simulation's virtual clock moves: only through control routes (`manual`), with the
 * wall clock (`realtime`), or N times faster than it (`60x`). The wall clock is read here, in the
 * shell, never in the core: the simulation only ever sees `advanceTo`.
 */
import { LAST_INSTANT } from '../core/instant.js';
import { err, ok, type Result } from '../core/result.js';

/** A clock mode: `rate` virtual ms per wall ms, or `manual` (0). */
export interface ClockMode {
  readonly name: string;
  /** Virtual milliseconds per wall millisecond; 0 for manual. */
  readonly rate: number;
}

/** Parses `manual`, `realtime` or `<N>x` (N > 0, up to a million). */
export function parseClockMode(text: string): Result<ClockMode, string> {
  if (text === 'manual') return ok({ name: 'manual', rate: 0 });
  if (text === 'realtime') return ok({ name: 'realtime', rate: 1 });
  const match = /^(\d+(?:\.\d+)?)x$/.exec(text);
  const rate = match === null ? Number.NaN : Number(match[1]);
  if (!(rate > 0 && rate <= 1_000_000))
    return err(
      `clock must be manual, realtime or a speed like 60x (up to 1000000x), got "${text}"`,
    );
  return ok({ name: `${match?.[1]}x`, rate });
}

/** Follows the wall clock at a mode's rate from the moment it starts. */
export class ClockDriver {
  readonly #wallStart: number;
  readonly #virtualStart: number;

  constructor(
    readonly mode: ClockMode,
    virtualStart: number,
    readonly wallNow: () => number = Date.now,
  ) {
    this.#wallStart = wallNow();
    this.#virtualStart = virtualStart;
  }

  /**
   * The virtual instant the wall clock says it is now (`undefined` in manual mode); never past the
   * last instant a simulation can reach.
   */
  target(): number | undefined {
    if (this.mode.rate === 0) return undefined;
    const elapsed = Math.floor((this.wallNow() - this.#wallStart) * this.mode.rate);
    return Math.min(LAST_INSTANT, this.#virtualStart + elapsed);
  }
}
