/**
 * Bug 8, writes through a read_only compute: a loader that writes a batch into a branch every
 * 10 minutes for an hour. The branch's computes are another team's to provision; each batch the
 * loader lists them and writes through the first one listed, which is a read replica whenever the
 * branch got one before its primary. A batch with no compute to go to waits for the next one.
 */
import type { ClientContext } from '../../../../src/testing/index.js';
import { isNotFound, neonApi, runStatement, SqlFailed, type Endpoint } from '../neonApi.js';

/** Loads up to seven batches into `branchId`; returns how many got in. */
export async function firstComputeForWrites(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<number> {
  const deadline = ctx.now() + 7_200_000;
  const api = neonApi(ctx, { deadline });
  let loaded = 0;
  for (let batch = 0; batch < 7; batch++) {
    if (batch > 0) await api.pause(600_000, 'waiting for the next batch');
    try {
      const { endpoints } = await api.request<{ endpoints: Endpoint[] }>(
        'GET',
        `/projects/${projectId}/branches/${branchId}/endpoints`,
      );
      const compute = endpoints[0];
      if (compute === undefined) continue; // not provisioned yet
      await runStatement(ctx, compute.id, 'write', 30_000, deadline);
      loaded += 1;
    } catch (error) {
      if (isNotFound(error)) return loaded; // the branch was deleted: nothing more to load
      if (!(error instanceof SqlFailed)) throw error; // the compute went away: the next batch
    }
  }
  return loaded;
}
