/**
 * Bug 10, a compute assumed active right after its start request: the nightly report wakes the
 * project's primary compute (scaled to zero overnight) and runs the report on it at once, before
 * the start operation has ended.
 */
import type { ClientContext } from '../../../../src/testing/index.js';
import { neonApi, SqlFailed, type Endpoint } from '../neonApi.js';

/** Wakes the primary of `branchId` and runs the report on it; returns the compute's id. */
export async function queriesBeforeStarted(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<string | undefined> {
  const api = neonApi(ctx, { deadline: ctx.now() + 7_200_000 });
  const { endpoints } = await api.request<{ endpoints: Endpoint[] }>(
    'GET',
    `/projects/${projectId}/branches/${branchId}/endpoints`,
  );
  const primary = endpoints.find((e) => e.type === 'read_write');
  if (primary === undefined) return undefined;
  await api.request('POST', `/projects/${projectId}/endpoints/${primary.id}/start`);
  // Started: the report runs now.
  const connection = ctx.connect(primary.id, { purpose: 'read' });
  try {
    const report = connection.query(60_000);
    if (!report.ok) throw new SqlFailed(report.error.sqlstate);
    await ctx.sleep(60_000);
  } finally {
    connection.close();
  }
  return primary.id;
}
