/**
 * A project's `default_endpoint_settings` in request bodies (create and update), mapped to the
 * settings the project keeps for computes created later.
 */
import type { EndpointSettings, ProjectEndpointDefaults } from '../model/state.js';
import type { BodyReader } from './bodyReader.js';

/** The fields of `default_endpoint_settings` present in `reader` (none: `undefined`). */
export function readEndpointDefaults(reader: BodyReader): ProjectEndpointDefaults | undefined {
  const fields: Record<keyof ProjectEndpointDefaults, unknown> = {
    minCu: reader.number('autoscaling_limit_min_cu'),
    maxCu: reader.number('autoscaling_limit_max_cu'),
    suspendTimeoutSeconds: reader.number('suspend_timeout_seconds', true),
    pgSettings: reader.stringMap('pg_settings'),
  };
  const given = Object.entries(fields).filter(([, value]) => value !== undefined);
  return given.length === 0 ? undefined : Object.fromEntries(given);
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
