/**
 * Bug 3, 423 never retried: give a project's primary compute room to autoscale. Its requests back
 * off on 429 and 5xx, but a 423 (the project is locked by an operation under way) is taken as a
 * final answer, and the job fails.
 */
import type { ClientContext } from '../../../../src/testing/index.js';
import { backoff, isNotFound, neonApi, type RetryPolicy } from '../neonApi.js';

/** Locked: someone else is changing it, give up. */
const notWhenLocked: RetryPolicy = (refusal, attempt) =>
  refusal.status === 423 ? undefined : backoff(refusal, attempt);

/** Resizes the primary of `branchId`; returns its id (undefined when it has none). */
export async function throwsOnLocked(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<string | undefined> {
  const api = neonApi(ctx, { deadline: ctx.now() + 7_200_000, retry: notWhenLocked });
  const primary = await api.primaryOf(projectId, branchId);
  if (primary === undefined) return undefined;
  try {
    await api.change('PATCH', `/projects/${projectId}/endpoints/${primary.id}`, {
      endpoint: { autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 2 },
    });
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  return primary.id;
}
