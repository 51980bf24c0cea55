/**
 * Careful: a staging branch refreshed for the day. The branch reset to its parent's head, then its
 * read_write compute given room to autoscale (0.25 to 2 CU); each change waited for and sent again
 * when its operations ended badly. A branch or compute someone deleted meanwhile leaves nothing to
 * do; the job has two hours.
 */
import type { ClientContext } from '../../../../src/testing/index.js';
import { isNotFound, neonApi, type Endpoint } from '../neonApi.js';

/** What the job did. */
export type ResetResult = 'reset and resized' | 'reset; no compute to resize' | 'branch gone';

/** Resets `branchId` to `parentId` and resizes its primary compute. */
export async function resetAndResize(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  parentId: string,
): Promise<ResetResult> {
  const api = neonApi(ctx, { deadline: ctx.now() + 7_200_000 });
  const project = `/projects/${projectId}`;
  try {
    await api.change('POST', `${project}/branches/${branchId}/restore`, {
      source_branch_id: parentId,
    });
    const { endpoints } = await api.request<{ endpoints: Endpoint[] }>(
      'GET',
      `${project}/branches/${branchId}/endpoints`,
    );
    const primary = endpoints.find((e) => e.type === 'read_write');
    if (primary === undefined) return 'reset; no compute to resize';
    try {
      await api.change('PATCH', `${project}/endpoints/${primary.id}`, {
        endpoint: { autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 2 },
      });
    } catch (error) {
      if (isNotFound(error)) return 'reset; no compute to resize';
      throw error;
    }
    return 'reset and resized';
  } catch (error) {
    if (isNotFound(error)) return 'branch gone';
    throw error;
  }
}
