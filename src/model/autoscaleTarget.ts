/**
 * Where autoscaling aims for one compute: the size its sessions' demand calls for. Shared by the
 * timer that samples demand and the handler that resizes.
 */
import { autoscaleTarget, autoscales } from '../domain/autoscaling.js';
import type { Profile } from '../domain/profile.js';
import type { EndpointState } from './state.js';

/**
 * The size a compute that autoscales and runs steadily should have under its sessions' demand
 * (compare it with `allocatedCu`); `undefined` when it is stopped, changing state, fixed-size or too
 * large to autoscale. Runs at every demand change and sample, so it builds no objects.
 */
export function autoscalingTarget(
  endpoint: EndpointState | undefined,
  profile: Profile,
): number | undefined {
  if (
    endpoint === undefined ||
    endpoint.allocatedCu === undefined ||
    endpoint.pendingState !== undefined ||
    !autoscales(endpoint.minCu, endpoint.maxCu, profile.limits.autoscalingMaxCu)
  )
    return undefined;
  return autoscaleTarget(
    endpoint.loadMilliCpu,
    endpoint.loadMemoryMb,
    endpoint.loadCacheMb,
    endpoint.minCu,
    endpoint.maxCu,
    profile.autoscaling,
  );
}
