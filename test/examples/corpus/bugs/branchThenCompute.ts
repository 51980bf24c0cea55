/**
 * Bug 2, mutate before a branch is ready: a feature branch, then a read_write compute for it, asked
 * for as soon as the branch is answered. The requests themselves are careful (refusals retried with
 * backoff, the compute's operations waited for); the branch's own operations are not.
 */
import type { ClientContext } from '../../../../src/testing/index.js';
import { neonApi, type Endpoint, type Operation } from '../neonApi.js';

/** Creates branch `name` with a compute; returns the compute's id. */
export async function branchThenCompute(
  ctx: ClientContext,
  projectId: string,
  name: string,
): Promise<string> {
  const api = neonApi(ctx, { deadline: ctx.now() + 7_200_000 });
  const { branch } = await api.request<{ branch: { id: string } }>(
    'POST',
    `/projects/${projectId}/branches`,
    { branch: { name } },
  );
  const created = await api.change<{ endpoint: Endpoint; operations: Operation[] }>(
    'POST',
    `/projects/${projectId}/endpoints`,
    { endpoint: { branch_id: branch.id, type: 'read_write' } },
  );
  return created.endpoint.id;
}
