/**
 * Bug 6, polling an operation faster than every 5 s: restart a project's primary compute and wait
 * for it, with the helpers set to poll every second "to be done sooner". All else is careful.
 */
import type { ClientContext } from '../../../../src/testing/index.js';
import { neonApi, restartPrimary } from '../neonApi.js';

/** Restarts the primary of `branchId`; returns its id (undefined when it has none). */
export async function pollsEverySecond(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<string | undefined> {
  const api = neonApi(ctx, { deadline: ctx.now() + 7_200_000, pollMs: 1_000 });
  return restartPrimary(api, projectId, branchId);
}
