/**
 * The real service's rate limit: 700 requests a minute per caller and bursts of 40 a second per
 * route, in sliding windows over a clock given to it: the wall clock for a served simulation (the
 * limit protects a server), virtual time for `sim.request` with `rateLimits` on (so a client's
 * backoff is testable without a server). Memory stays bounded: windows with nothing left in them are
 * dropped, and the number of windows is capped.
 */

/** Limits of a rate limiter. */
export interface RateLimits {
  readonly perKeyPerMinute: number;
  readonly perRoutePerSecond: number;
}

/** The limits of the public API (fidelity.md). */
export const API_RATE_LIMITS: RateLimits = { perKeyPerMinute: 700, perRoutePerSecond: 40 };

/** Windows kept at most, per kind; past that the least recently used are dropped. */
const MAX_WINDOWS = 50_000;

/** Counts requests in sliding windows and says when one must wait. */
export class RateLimiter {
  readonly #callers = new Windows(60_000);
  readonly #routes = new Windows(1_000);

  constructor(
    readonly limits: RateLimits,
    /** The clock windows are counted on, epoch ms (wall or virtual). */
    readonly now: () => number,
  ) {}

  /** Windows held now (callers plus caller-routes): what the limiter costs in memory. */
  get windows(): number {
    return this.#callers.size + this.#routes.size;
  }

  /**
   * Admits a request of `caller` (an API key the server knows, or the client's address for any
   * other) on `route`, counting it, or returns how many seconds to wait before retrying.
   */
  admit(caller: string, route: string): number | undefined {
    const now = this.now();
    const byCaller = this.#callers.recent(caller, now);
    const byRoute = this.#routes.recent(`${caller} ${route}`, now);
    if (byCaller.length >= this.limits.perKeyPerMinute)
      return Math.max(1, Math.ceil(((byCaller[0] as number) + 60_000 - now) / 1_000));
    if (byRoute.length >= this.limits.perRoutePerSecond)
      return Math.max(1, Math.ceil(((byRoute[0] as number) + 1_000 - now) / 1_000));
    this.#callers.count(caller, now);
    this.#routes.count(`${caller} ${route}`, now);
    return undefined;
  }
}

/** Sliding windows of one length, by name, least recently used first. */
class Windows {
  readonly #times = new Map<string, number[]>();
  #sweptAt = -Infinity;

  constructor(readonly length: number) {}

  get size(): number {
    return this.#times.size;
  }

  /**
   * The times of `name` inside the window ending at `now` (pruned). Creates no window: a request
   * that is refused costs no memory.
   */
  recent(name: string, now: number): readonly number[] {
    this.#sweep(now);
    const times = this.#times.get(name);
    if (times === undefined) return [];
    const since = now - this.length;
    let drop = 0;
    while (drop < times.length && (times[drop] as number) <= since) drop++;
    if (drop > 0) times.splice(0, drop);
    return times;
  }

  /** Counts a request of `name` at `now`; its window becomes the most recently used. */
  count(name: string, now: number): void {
    const times = this.#times.get(name) ?? [];
    this.#times.delete(name);
    times.push(now);
    this.#times.set(name, times);
  }

  /** Once per window length: drops every window whose times have all expired; caps the count. */
  #sweep(now: number): void {
    if (now - this.#sweptAt >= this.length) {
      this.#sweptAt = now;
      const since = now - this.length;
      for (const [name, times] of this.#times) {
        const last = times[times.length - 1];
        if (last === undefined || last <= since) this.#times.delete(name);
      }
    }
    for (const name of this.#times.keys()) {
      if (this.#times.size < MAX_WINDOWS) break;
      this.#times.delete(name);
    }
  }
}
