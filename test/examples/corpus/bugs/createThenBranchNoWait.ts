/**
 * Bug 1, create then mutate without waiting: a project for a new customer and a `dev` branch in
 * it, the branch asked for as soon as the project is answered. When it is refused (locked, not
 * ready) it is asked again at once, a few times: the project's operations are never waited for.
 */
import type { ClientContext } from '../../../../src/testing/index.js';
import { backoff, neonApi, type Operation, type RetryPolicy } from '../neonApi.js';

/** Locked or not ready: ask again straight away, three times. */
const atOnce: RetryPolicy = (refusal, attempt) =>
  [422, 423].includes(refusal.status) ? (attempt < 4 ? 0 : undefined) : backoff(refusal, attempt);

/** Creates the customer's project and its dev branch; returns the branch id. */
export async function createThenBranchNoWait(
  ctx: ClientContext,
  customer: string,
): Promise<string> {
  const deadline = ctx.now() + 7_200_000;
  const api = neonApi(ctx, { deadline });
  const { project } = await api.request<{ project: { id: string } }>('POST', '/projects', {
    project: { name: customer },
  });
  const branching = neonApi(ctx, { deadline, retry: atOnce });
  const created = await branching.request<{ branch: { id: string }; operations: Operation[] }>(
    'POST',
    `/projects/${project.id}/branches`,
    { branch: { name: 'dev' } },
  );
  await api.settle(created.operations);
  return created.branch.id;
}
