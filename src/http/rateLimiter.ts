/**
 * The real service's rate limit, switchable on for served simulations: 700 requests a minute per
 * key and bursts of 40 a second per route. Sliding windows over wall-clock time (the limit protects
 * a server, so it follows the wall clock, not virtual time).
 */

/** Limits of a rate limiter. */
export interface RateLimits {
  readonly perKeyPerMinute: number;
  readonly perRoutePerSecond: number;
}

/** The limits of the public API (fidelity.md). */
export const API_RATE_LIMITS: RateLimits = { perKeyPerMinute: 700, perRoutePerSecond: 40 };

/** Counts requests in sliding windows and says when one must wait. */
export class RateLimiter {
  readonly #keys = new Map<string, number[]>();
  readonly #routes = new Map<string, number[]>();

  constructor(
    readonly limits: RateLimits = API_RATE_LIMITS,
    readonly wallNow: () => number = Date.now,
  ) {}

  /**
   * Admits a request of `key` on `route` (counting it), or returns how many seconds to wait
   * before retrying (for `Retry-After`).
   */
  admit(key: string, route: string): number | undefined {
    const now = this.wallNow();
    const byKey = recent(this.#keys, key, now - 60_000);
    const byRoute = recent(this.#routes, `${key} ${route}`, now - 1_000);
    if (byKey.length >= this.limits.perKeyPerMinute)
      return Math.max(1, Math.ceil(((byKey[0] as number) + 60_000 - now) / 1_000));
    if (byRoute.length >= this.limits.perRoutePerSecond)
      return Math.max(1, Math.ceil(((byRoute[0] as number) + 1_000 - now) / 1_000));
    byKey.push(now);
    byRoute.push(now);
    return undefined;
  }
}

/** The times in `map[name]` after `since`, pruned in place. */
function recent(map: Map<string, number[]>, name: string, since: number): number[] {
  let times = map.get(name);
  if (times === undefined) map.set(name, (times = []));
  let drop = 0;
  while (drop < times.length && (times[drop] as number) <= since) drop++;
  if (drop > 0) times.splice(0, drop);
  return times;
}
