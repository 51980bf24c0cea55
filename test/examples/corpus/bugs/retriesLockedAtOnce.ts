/**
 * Bug 4, 423 retried with no delay: restart a project's primary compute. Its requests back off on
 * 429 and 5xx, but a 423 is asked again at once (up to eight times), hammering a locked project.
 */
import type { ClientContext } from '../../../../src/testing/index.js';
import { backoff, neonApi, restartPrimary, type RetryPolicy } from '../neonApi.js';

/** Locked for a moment: try again straight away. */
const atOnceWhenLocked: RetryPolicy = (refusal, attempt) =>
  refusal.status === 423 ? (attempt < 8 ? 0 : undefined) : backoff(refusal, attempt);

/** Restarts the primary of `branchId`; returns its id (undefined when it has none). */
export async function retriesLockedAtOnce(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<string | undefined> {
  const api = neonApi(ctx, { deadline: ctx.now() + 7_200_000, retry: atOnceWhenLocked });
  return restartPrimary(api, projectId, branchId);
}
