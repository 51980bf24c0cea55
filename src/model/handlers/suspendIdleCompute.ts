/**
 * SuspendIdleCompute (timer): scale to zero. A compute idle for its whole suspend timeout gets a
 * `suspend_compute` operation. Stale when the compute was used, changed or suspended since.
 */
import { ok } from '../../core/result.js';
import type { Handler } from '../decideContext.js';
import { recordOperations } from '../operationPlanner.js';
import type { SuspendIdleCompute } from '../timers.js';

/** Decides whether an idle compute is suspended now. */
export const suspendIdleCompute: Handler<SuspendIdleCompute> = (state, command, context) => {
  const project = state.projects[command.projectId];
  const endpoint = project?.endpoints[command.endpointId];
  if (
    project === undefined ||
    endpoint === undefined ||
    endpoint.currentState !== 'active' ||
    endpoint.pendingState !== undefined ||
    endpoint.idleSince !== command.idleSince
  ) {
    return ok([]);
  }
  return ok(
    recordOperations(
      project.id,
      [
        {
          action: 'suspend_compute',
          branchId: endpoint.branchId,
          endpointId: endpoint.id,
          latency: 'suspend_compute',
        },
      ],
      context,
      project.endpoints,
    ),
  );
};
