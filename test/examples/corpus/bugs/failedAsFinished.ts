/**
 * Bug 7, a failed operation taken as done: give a project's primary compute a bigger size range,
 * then restart it. Waiting for the resize stops as soon as its operations stop running, `failed`
 * included, as if `failed` were the end: the restart is sent while the control plane retries.
 */
import type { ClientContext } from '../../../../src/testing/index.js';
import { isNotFound, neonApi, type NeonApi, type Operation } from '../neonApi.js';

/** Until each operation is no longer scheduled or running. */
async function untilDone(api: NeonApi, operations: readonly Operation[]): Promise<void> {
  for (const { id, project_id } of operations)
    for (;;) {
      const { operation } = await api.request<{ operation: Operation }>(
        'GET',
        `/projects/${project_id}/operations/${id}`,
      );
      if (!['scheduling', 'running', 'cancelling'].includes(operation.status)) break;
      await api.pause(5_000, 'waiting');
    }
}

/** Resizes then restarts the primary of `branchId`; returns its id (undefined when it has none). */
export async function failedAsFinished(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<string | undefined> {
  const api = neonApi(ctx, { deadline: ctx.now() + 7_200_000 });
  const project = `/projects/${projectId}`;
  const primary = await api.primaryOf(projectId, branchId);
  if (primary === undefined) return undefined;
  try {
    const resized = await api.request<{ operations: Operation[] }>(
      'PATCH',
      `${project}/endpoints/${primary.id}`,
      { endpoint: { autoscaling_limit_min_cu: 0.5, autoscaling_limit_max_cu: 4 } },
    );
    await untilDone(api, resized.operations);
    const restarted = await api.request<{ operations: Operation[] }>(
      'POST',
      `${project}/endpoints/${primary.id}/restart`,
    );
    await untilDone(api, restarted.operations);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  return primary.id;
}
