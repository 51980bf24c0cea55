/**
 * Bug 12, polling forever with no deadline: restart a project's primary compute and wait for its
 * operations every 5 s for as long as they take. Each request backs off and ends, but the job as a
 * whole has no deadline: an operation that never ends holds it forever.
 */
import type { ClientContext } from '../../../../src/testing/index.js';
import { isNotFound, neonApi, type Endpoint } from '../neonApi.js';

/** Restarts the primary of `branchId`; returns its id (undefined when it has none). */
export async function pollsWithoutDeadline(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<string | undefined> {
  const api = neonApi(ctx, { deadline: Number.POSITIVE_INFINITY });
  const { endpoints } = await api.request<{ endpoints: Endpoint[] }>(
    'GET',
    `/projects/${projectId}/endpoints`,
  );
  const primary = endpoints.find((e) => e.branch_id === branchId && e.type === 'read_write');
  if (primary === undefined) return undefined;
  try {
    await api.change('POST', `/projects/${projectId}/endpoints/${primary.id}/restart`);
  } catch (error) {
    if (isNotFound(error)) return undefined; // deleted meanwhile
    throw error;
  }
  return primary.id;
}
