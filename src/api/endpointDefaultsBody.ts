/**
 * A project's `default_endpoint_settings` in request bodies (create and update), mapped to the
 * settings the project keeps for the computes created from then on.
 */
import type { DefaultEndpointSettings } from '@neondatabase/api-client';
import type { EndpointSettings, ProjectEndpointDefaults } from '../model/state.js';
import { presentFields } from './presentFields.js';

/** The fields of `default_endpoint_settings` present in `given` (none: `undefined`). */
export function endpointDefaults(
  given: DefaultEndpointSettings | undefined,
): ProjectEndpointDefaults | undefined {
  if (given === undefined) return undefined;
  const present = presentFields({
    minCu: given.autoscaling_limit_min_cu,
    maxCu: given.autoscaling_limit_max_cu,
    suspendTimeoutSeconds: given.suspend_timeout_seconds,
    pgSettings: given.pg_settings === undefined ? undefined : { ...given.pg_settings },
  });
  return Object.keys(present).length === 0 ? undefined : present;
}

/**
 * A project's defaults as the base of a new compute's settings: a lone size limit fixes the size, as
 * it does in a create body.
 */
export function newComputeBase(
  defaults: ProjectEndpointDefaults | undefined,
): Partial<EndpointSettings> {
  if (defaults === undefined) return {};
  const { minCu, maxCu, ...rest } = defaults;
  const min = minCu ?? maxCu;
  const max = maxCu ?? minCu;
  return {
    ...rest,
    ...(min === undefined ? {} : { minCu: min }),
    ...(max === undefined ? {} : { maxCu: max }),
  };
}
