/**
 * `--set name=value` flags of `replay --fork-at`, read into the settings change a fork applies:
 * profile paths, a compute's settings (`ep-….minCu`), a workload's rates (`w1.rateScale`).
 */
import { own } from '../core/own.js';
import type { SettingsChange } from '../simulation/fork.js';
import { UsageError } from './args.js';

/** Shorthands for the settings people change most. */
const PROFILE_ALIASES: Readonly<Record<string, string>> = {
  suspendTimeout: 'defaultSuspendTimeoutSeconds',
};
const COMPUTE_FIELDS: Readonly<Record<string, string>> = {
  minCu: 'minCu',
  maxCu: 'maxCu',
  suspendTimeout: 'suspendTimeoutSeconds',
  suspendTimeoutSeconds: 'suspendTimeoutSeconds',
};
const WORKLOAD_FIELDS = ['rates', 'rateScale'];
/** Names that would reach an object's prototype instead of a setting. */
const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Help lines for the flag. */
export const SET_HELP = `  --set NAME=VALUE  a change from the fork point on (repeatable):
                    suspendTimeout=60 (the profile's default timeout, seconds), any profile
                    path (autoscaling.cpuGoal=0.8, latency.wake_compute=[100,300]),
                    ep-….minCu / maxCu / suspendTimeout (one compute), w1.rates / w1.rateScale`;

/**
 * The change `--set` flags describe. Values are JSON where they parse as JSON (numbers, booleans,
 * lists), else text; the fork checks them against the run.
 */
export function settingsChangeOf(assignments: readonly string[]): SettingsChange {
  const profile: Record<string, unknown> = {};
  const computes: Record<string, Record<string, unknown>> = {};
  const workloads: Record<string, Record<string, unknown>> = {};
  for (const assignment of assignments) {
    const equals = assignment.indexOf('=');
    const name = equals <= 0 ? '' : assignment.slice(0, equals).trim();
    const text = assignment.slice(equals + 1).trim();
    if (name === '' || text === '')
      throw new UsageError(`--set wants NAME=VALUE, got "${assignment}"`);
    const value = valueOf(text);
    const [head = '', ...rest] = name.split('.');
    if (head.startsWith('ep-')) {
      const field = own(COMPUTE_FIELDS, rest.join('.'));
      if (field === undefined)
        throw new UsageError(
          `--set ${name}: a compute's setting is one of ${Object.keys(COMPUTE_FIELDS).join(', ')}`,
        );
      assign((computes[head] ??= {}), [field], value, name);
    } else if (/^w\d+$/.test(head)) {
      const field = rest.join('.');
      if (!WORKLOAD_FIELDS.includes(field))
        throw new UsageError(`--set ${name}: a workload's setting is rates or rateScale`);
      assign((workloads[head] ??= {}), [field], value, name);
    } else {
      assign(profile, [own(PROFILE_ALIASES, head) ?? head, ...rest], value, name);
    }
  }
  return {
    ...(Object.keys(profile).length === 0 ? {} : { profile }),
    ...(Object.keys(computes).length === 0 ? {} : { computes }),
    ...(Object.keys(workloads).length === 0 ? {} : { workloads }),
  };
}

/** Sets `path` in `target`, creating objects on the way; the same setting twice is refused. */
function assign(
  target: Record<string, unknown>,
  path: readonly string[],
  value: unknown,
  name: string,
) {
  let node = target;
  for (const [i, key] of path.entries()) {
    if (key === '') throw new UsageError(`--set ${name}: an empty name between dots`);
    if (UNSAFE_KEYS.has(key)) throw new UsageError(`--set ${name}: there is no setting ${key}`);
    if (i === path.length - 1) {
      if (Object.hasOwn(node, key)) throw new UsageError(`--set ${name} given twice`);
      node[key] = value;
      return;
    }
    const next = node[key];
    if (next !== undefined && (typeof next !== 'object' || next === null || Array.isArray(next)))
      throw new UsageError(`--set ${name}: ${key} is set to a value already`);
    node = (node[key] ??= {}) as Record<string, unknown>;
  }
}

function valueOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
