/**
 * Bug 11, an id used after its branch was deleted: tear down a preview branch, then restart the
 * compute it had "to drop any connection left", an id that went with the branch.
 */
import type { ClientContext } from '../../../../src/testing/index.js';
import { isNotFound, neonApi, type Endpoint } from '../neonApi.js';

/** Deletes preview branch `branchId`; returns the computes it had. */
export async function restartsDeletedEndpoint(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<string[]> {
  const api = neonApi(ctx, { deadline: ctx.now() + 7_200_000 });
  const project = `/projects/${projectId}`;
  let endpoints: Endpoint[];
  try {
    ({ endpoints } = await api.request<{ endpoints: Endpoint[] }>(
      'GET',
      `${project}/branches/${branchId}/endpoints`,
    ));
    await api.change('DELETE', `${project}/branches/${branchId}`);
  } catch (error) {
    if (isNotFound(error)) return []; // someone else tore it down
    throw error;
  }
  for (const endpoint of endpoints)
    await api.change('POST', `${project}/endpoints/${endpoint.id}/restart`);
  return endpoints.map((e) => e.id);
}
