/**
 * Bug 5, Retry-After ignored on 429: set a 10-minute suspend timeout on every compute of a
 * project. Locks and 5xx are retried with backoff; a 429 is retried after a fixed 500 ms, whatever
 * its `Retry-After` says.
 */
import type { ClientContext } from '../../../../src/testing/index.js';
import { backoff, isNotFound, neonApi, type Endpoint, type RetryPolicy } from '../neonApi.js';

/** Rate limited: a short pause is enough. */
const shortPauseWhenLimited: RetryPolicy = (refusal, attempt) =>
  refusal.status === 429 ? (attempt < 8 ? 500 : undefined) : backoff(refusal, attempt);

/** Sets the suspend timeout of every compute; returns how many it changed. */
export async function ignoresRetryAfter(ctx: ClientContext, projectId: string): Promise<number> {
  const api = neonApi(ctx, { deadline: ctx.now() + 7_200_000, retry: shortPauseWhenLimited });
  const { endpoints } = await api.request<{ endpoints: Endpoint[] }>(
    'GET',
    `/projects/${projectId}/endpoints`,
  );
  let changed = 0;
  for (const endpoint of endpoints)
    try {
      await api.change('PATCH', `/projects/${projectId}/endpoints/${endpoint.id}`, {
        endpoint: { suspend_timeout_seconds: 600 },
      });
      changed += 1;
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  return changed;
}
