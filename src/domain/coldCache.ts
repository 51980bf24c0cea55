/**
 * Cold caches after a start (a simple model, see `ColdCacheProfile`): the extra time a session's
 * first queries take when it opens while the compute's cache is still warming up.
 */
import type { ColdCacheProfile } from './profile.js';

/** Extra milliseconds for a session opening at `now` on a compute started at `startedAt`. */
export function coldCachePenaltyMs(
  startedAt: number | undefined,
  now: number,
  cache: ColdCacheProfile,
): number {
  if (startedAt === undefined || cache.warmupMs === 0) return 0;
  const elapsed = now - startedAt;
  if (elapsed >= cache.warmupMs) return 0;
  return Math.round(cache.penaltyMs * (1 - elapsed / cache.warmupMs));
}
