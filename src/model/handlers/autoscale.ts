/**
 * Autoscale (timer): a demand sample of a running compute. It grows to the target size at once and
 * shrinks only once demand has been lower for the scale-down hold; never a restart, never a drop.
 * Stale when the compute is not running steadily or already has the target size.
 */
import { ok } from '../../core/result.js';
import { autoscalingTarget } from '../autoscaleTarget.js';
import type { Handler, Pending } from '../decideContext.js';
import type { Autoscale } from '../timers.js';

/** Decides one autoscaling sample. */
export const autoscale: Handler<Autoscale> = (state, command, context) => {
  const endpoint = state.projects[command.projectId]?.endpoints[command.endpointId];
  const target = autoscalingTarget(endpoint, context.profile);
  const allocated = endpoint?.allocatedCu;
  if (target === undefined || allocated === undefined || target === allocated) return ok([]);
  const steadyFor = context.now - (endpoint?.loadChangedAt ?? 0);
  if (target < allocated && steadyFor < context.profile.autoscaling.scaleDownAfterMs) return ok([]);
  return ok<Pending>([
    {
      type: 'ComputeResized',
      projectId: command.projectId,
      endpointId: command.endpointId,
      fromCu: allocated,
      toCu: target,
    },
  ]);
};
