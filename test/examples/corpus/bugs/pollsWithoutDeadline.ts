/**
 * Bug 12, polling forever with no deadline: restart a project's primary compute and wait for its
 * operations every 5 s for as long as they take. Each request backs off and ends, but the job as a
 * whole has no deadline: an operation that never ends holds it forever.
 */
import type { ClientContext } from '../../../../src/testing/index.js';
import { neonApi, restartPrimary } from '../neonApi.js';

/** Restarts the primary of `branchId`; returns its id (undefined when it has none). */
export async function pollsWithoutDeadline(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<string | undefined> {
  const api = neonApi(ctx, { deadline: Number.POSITIVE_INFINITY });
  return restartPrimary(api, projectId, branchId);
}
