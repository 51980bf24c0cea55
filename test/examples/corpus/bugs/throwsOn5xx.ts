/**
 * Bug 9, giving up on the first transient 5xx: a branch with its compute for a CI run, waited for.
 * Locks, "not ready" and 429 are retried with backoff, but any 5xx is taken as the service being
 * down, and the job fails.
 */
import type { ClientContext } from '../../../../src/testing/index.js';
import { backoff, neonApi, type Endpoint, type Operation, type RetryPolicy } from '../neonApi.js';

/** A 5xx: the service is down, give up. */
const notOn5xx: RetryPolicy = (refusal, attempt) =>
  refusal.status >= 500 ? undefined : backoff(refusal, attempt);

/** Creates the CI branch `ci-<run>` with its compute; returns the compute's id. */
export async function throwsOn5xx(
  ctx: ClientContext,
  projectId: string,
  run: number,
): Promise<string | undefined> {
  const api = neonApi(ctx, { deadline: ctx.now() + 7_200_000, retry: notOn5xx });
  const created = await api.change<{ endpoints: Endpoint[]; operations: Operation[] }>(
    'POST',
    `/projects/${projectId}/branches`,
    { branch: { name: `ci-${run}` }, endpoints: [{ type: 'read_write' }] },
  );
  return created.endpoints[0]?.id;
}
