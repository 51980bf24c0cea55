/**
 * Where autoscaling stands for one compute: the size it runs at and the size its sessions' demand
 * calls for. Shared by the timer that samples demand and the handler that resizes.
 */
import { autoscaleTarget, autoscales } from '../domain/autoscaling.js';
import type { Profile } from '../domain/profile.js';
import type { EndpointState } from './state.js';

/**
 * The allocated and target sizes of a compute that autoscales and runs steadily; `undefined` when
 * it is stopped, changing state, fixed-size or too large to autoscale.
 */
export function autoscalingOf(
  endpoint: EndpointState | undefined,
  profile: Profile,
): { readonly allocated: number; readonly target: number } | undefined {
  const allocated = endpoint?.allocatedCu;
  if (endpoint === undefined || allocated === undefined || endpoint.pendingState !== undefined)
    return undefined;
  if (!autoscales(endpoint.minCu, endpoint.maxCu, profile.limits.autoscalingMaxCu))
    return undefined;
  const demand = {
    milliCpu: endpoint.loadMilliCpu,
    memoryMb: endpoint.loadMemoryMb,
    cacheMb: endpoint.loadCacheMb,
  };
  const target = autoscaleTarget(demand, endpoint.minCu, endpoint.maxCu, profile.autoscaling);
  return { allocated, target };
}
