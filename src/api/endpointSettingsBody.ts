/**
 * The compute fields of request bodies, mapped to domain settings: `autoscaling_limit_min_cu` →
 * `minCu` and so on. The public schema has checked their types; the domain rules the schema cannot
 * state are checked here once (the provisioner) or by the model (sizes, the suspend timeout's
 * range, the plan). When only one of the size limits is given, the compute is fixed at that size.
 */
import type {
  BranchCreateRequestEndpointOptions,
  EndpointUpdateRequest,
} from '@neondatabase/api-client';
import { err, ok, type Result } from '../core/result.js';
import { ENDPOINT_DEFAULTS, provisionerProblem } from '../domain/endpointDefaults.js';
import { reject, type Rejection } from '../domain/rejection.js';
import type { NewEndpoint } from '../model/commands.js';
import type { EndpointSettings } from '../model/state.js';
import { presentFields } from './presentFields.js';

/** The compute settings a body may give (a new compute's, or an update's). */
export type ComputeFields = Omit<EndpointUpdateRequest['endpoint'], 'branch_id'>;

/** The fields a new branch's compute declares besides its type: the only ones read from it. */
const BRANCH_COMPUTE_FIELDS = [
  'autoscaling_limit_min_cu',
  'autoscaling_limit_max_cu',
  'provisioner',
  'suspend_timeout_seconds',
  'settings',
] as const satisfies readonly (keyof BranchCreateRequestEndpointOptions & keyof ComputeFields)[];

/**
 * The settings `fields` give (absent ones stay absent), or the refusal of one the domain does not
 * allow, named under `at` (`endpoint`, `endpoints[0]`).
 */
export function settingChanges(
  fields: ComputeFields,
  at: string,
): Result<Partial<EndpointSettings>, Rejection> {
  const problem =
    fields.provisioner === undefined ? undefined : provisionerProblem(fields.provisioner);
  if (problem !== undefined) return err(reject('invalid_input', `${at}.${problem}`));
  const pgSettings = fields.settings?.pg_settings;
  return ok(
    presentFields({
      minCu: fields.autoscaling_limit_min_cu,
      maxCu: fields.autoscaling_limit_max_cu,
      suspendTimeoutSeconds: fields.suspend_timeout_seconds,
      poolerEnabled: fields.pooler_enabled,
      poolerMode: fields.pooler_mode,
      disabled: fields.disabled,
      passwordlessAccess: fields.passwordless_access,
      pgSettings: pgSettings === undefined ? undefined : { ...pgSettings },
      provisioner: fields.provisioner,
      name: fields.name,
    }),
  );
}

/**
 * Full settings of a new compute: the given fields over `defaults` over the defaults of every
 * compute (a lone size limit fixes the size).
 */
export function newSettings(
  fields: ComputeFields,
  defaults: Partial<EndpointSettings>,
  at: string,
): Result<EndpointSettings, Rejection> {
  const changes = settingChanges(fields, at);
  if (!changes.ok) return changes;
  const given = changes.value;
  const base = { ...ENDPOINT_DEFAULTS, ...defaults };
  return ok({
    ...base,
    ...given,
    minCu: given.minCu ?? given.maxCu ?? base.minCu,
    maxCu: given.maxCu ?? given.minCu ?? base.maxCu,
    pgSettings: { ...(given.pgSettings ?? base.pgSettings) },
  });
}

/** A compute of a new branch (`endpoints[i]` of a branch create body) over `defaults`. */
export function newBranchCompute(
  options: BranchCreateRequestEndpointOptions,
  defaults: Partial<EndpointSettings>,
  at: string,
): Result<NewEndpoint, Rejection> {
  const declared = Object.fromEntries(BRANCH_COMPUTE_FIELDS.map((key) => [key, options[key]]));
  const settings = newSettings(declared, defaults, at);
  return settings.ok ? ok({ endpointType: options.type, settings: settings.value }) : settings;
}
