/**
 * The compute fields of request bodies, mapped to domain settings: `autoscaling_limit_min_cu` →
 * `minCu` and so on. When only one of the size limits is given, the compute is fixed at that size.
 */
import { COMPUTE_TYPES, type ComputeType } from '../domain/computeState.js';
import { ENDPOINT_DEFAULTS, POOLER_MODES, PROVISIONERS } from '../domain/endpointDefaults.js';
import type { EndpointSettings } from '../model/state.js';
import type { BodyReader } from './bodyReader.js';

const NAME = /^.{1,64}$/su;

/** The settings fields present in `reader` (absent ones stay absent). */
export function readSettingChanges(reader: BodyReader): Partial<EndpointSettings> {
  const min = reader.number('autoscaling_limit_min_cu');
  const max = reader.number('autoscaling_limit_max_cu');
  const fields: Partial<Record<keyof EndpointSettings, unknown>> = {
    minCu: min,
    maxCu: max,
    suspendTimeoutSeconds: reader.number('suspend_timeout_seconds', true),
    poolerEnabled: reader.boolean('pooler_enabled'),
    poolerMode: reader.oneOf('pooler_mode', POOLER_MODES),
    disabled: reader.boolean('disabled'),
    passwordlessAccess: reader.boolean('passwordless_access'),
    pgSettings: reader.object_('settings').stringMap('pg_settings'),
    provisioner: reader.oneOf('provisioner', PROVISIONERS),
    name: reader.string('name', NAME, 'a string of 1 to 64 characters'),
  };
  const given: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) given[key] = value;
  return given;
}

/** Full settings of a new compute: the given fields over the defaults (a lone size limit fixes the size). */
export function readNewSettings(
  reader: BodyReader,
  defaults: Partial<EndpointSettings> = {},
): EndpointSettings {
  const given = readSettingChanges(reader);
  const base = { ...ENDPOINT_DEFAULTS, ...defaults };
  const minCu = given.minCu ?? given.maxCu ?? base.minCu;
  const maxCu = given.maxCu ?? given.minCu ?? base.maxCu;
  return {
    ...base,
    ...given,
    minCu,
    maxCu,
    pgSettings: { ...(given.pgSettings ?? base.pgSettings) },
  };
}

/** The compute type of a create body: required, as the public schema says. */
export function readEndpointType(reader: BodyReader): ComputeType {
  const type = reader.oneOf('type', COMPUTE_TYPES);
  if (type === undefined && reader.object['type'] === undefined)
    reader.fail(
      `${reader.path === 'body' ? '' : `${reader.path}.`}type is required (read_write or read_only)`,
    );
  return type ?? 'read_write';
}
