/**
 * Bug 1b, create then mutate, politely: a project for a new customer and a `dev` branch in it. A
 * refused branch (locked, not ready) is asked again after 2 s, 4 s and 8 s, which usually gets
 * through; but no operation is ever polled, so the first ask comes while the project's run.
 */
import type { ClientContext } from '../../../../src/testing/index.js';
import { backoff, neonApi, type RetryPolicy } from '../neonApi.js';

/** Locked or not ready: 2 s, 4 s, 8 s. */
const politely: RetryPolicy = (refusal, attempt) =>
  [422, 423].includes(refusal.status)
    ? ([2_000, 4_000, 8_000][attempt - 1] ?? undefined)
    : backoff(refusal, attempt);

/** Creates the customer's project and its dev branch; returns the branch id. */
export async function createThenBranchBackoff(
  ctx: ClientContext,
  customer: string,
): Promise<string> {
  const api = neonApi(ctx, { deadline: ctx.now() + 7_200_000, retry: politely });
  const { project } = await api.request<{ project: { id: string } }>('POST', '/projects', {
    project: { name: customer },
  });
  const { branch } = await api.request<{ branch: { id: string } }>(
    'POST',
    `/projects/${project.id}/branches`,
    { branch: { name: 'dev' } },
  );
  return branch.id;
}
