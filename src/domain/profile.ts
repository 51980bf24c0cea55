/**
 * The profile: every number of the control plane that a user may override (latencies, timeouts,
 * region, host names), in one object. Declared once as a schema: the types, the defaults and the
 * checks of overrides (strict at every depth, merged key by key onto the defaults) all come from it.
 */
import { z } from 'zod';
import type { Result } from '../core/result.js';
import { parseInput, satisfying, strictObject, whole, type Immutable } from '../core/schema.js';
import { isExplicitSuspendTimeout, SUSPEND_TIMEOUT_RANGE } from './endpointDefaults.js';
import { OPERATION_ACTIONS, type OperationAction } from './operationAction.js';
import { PLANS } from './plan.js';
import { DAY_MS, HOUR_MS } from '../core/duration.js';

/** The named profiles: the seed spec's values (default) and the real service's today. */
export const PROFILE_NAMES = ['seed', 'current'] as const;

/** A named profile. */
export type ProfileName = (typeof PROFILE_NAMES)[number];

/** A duration range `[min, max]` in milliseconds; a draw is uniform in it. */
type LatencyRange = readonly [minMs: number, maxMs: number];

const RANGE_PROBLEM = 'must be [minMs, maxMs] with 0 ≤ min ≤ max, whole milliseconds';

/** `[min, max]`, whole ms, 0 ≤ min ≤ max. */
const latencyRange = satisfying<LatencyRange>(
  (value) =>
    Array.isArray(value) &&
    value.length === 2 &&
    value.every((n) => Number.isSafeInteger(n) && (n as number) >= 0) &&
    (value[0] as number) <= (value[1] as number),
  RANGE_PROBLEM,
);

const range = (min: number, max: number) => latencyRange.default([min, max]);
const wholeMs = (min: number, what = `whole ms ≥ ${min}`) => whole(min, `must be ${what}`);
const rate = satisfying<number>(
  (n) => typeof n === 'number' && n >= 0 && n <= 1,
  'must be in 0..1',
);
const fraction = satisfying<number>(
  (n) => typeof n === 'number' && n > 0 && n <= 1,
  'must be in (0, 1]',
);
const positive = satisfying<number>(
  (n) => typeof n === 'number' && n > 0 && Number.isFinite(n),
  'must be a positive number',
);

/** Latency of each kind of control-plane work, as a uniform range. */
const latencySchema = strictObject(
  {
    create_timeline: range(2_000, 4_000),
    /** The first start of a newly created compute. */
    start_compute: range(1_000, 5_000),
    /** Waking an idle compute ("a few hundred milliseconds"). */
    wake_compute: range(200, 600),
    suspend_compute: range(100, 400),
    apply_config: range(50, 100),
    create_branch: range(100, 200),
    check_availability: range(2_000, 5_000),
    tenant_detach: range(1_000, 3_000),
    tenant_reattach: range(1_000, 3_000),
  },
  'kind',
);

/**
 * Fault injection for one action: each attempt fails with probability `failureRate`; a failed
 * operation is retried after `retryDelayMs` (status `failed`, `failures_count` grows) until
 * `maxRetries` retries have failed too, when it ends in `error` (or, with `endsInError: false`,
 * when its next attempt finishes: a failure the control plane always recovers from). With
 * `delayRate`, an operation that would run at once first stays `scheduling` for a time drawn from
 * `delayMs` (the control plane is slow to pick it up).
 */
const faultSpecSchema = strictObject({
  failureRate: rate,
  maxRetries: whole(0, 'must be a whole number ≥ 0'),
  retryDelayMs: whole(0, 'must be whole milliseconds ≥ 0'),
  /** Whether an operation out of retries ends in `error` (default) or finishes on its next attempt. */
  endsInError: z.boolean().optional(),
  delayRate: rate.optional(),
  delayMs: latencyRange.optional(),
}).check((context) => {
  const { delayRate, delayMs } = context.value;
  if ((delayRate ?? 0) > 0 && delayMs === undefined)
    context.issues.push({
      code: 'custom',
      message: 'delayRate needs delayMs',
      input: context.value,
    });
});

/**
 * What faults are keyed by: an operation action, or `wake_compute` for the starts that wake an idle
 * compute (they take precedence over `start_compute` for those).
 */
const FAULT_TARGETS = [...OPERATION_ACTIONS, 'wake_compute'] as const;

const faultsSchema = z.partialRecord(z.enum(FAULT_TARGETS), faultSpecSchema, {
  // An unknown action is reported by the record as `unrecognized_keys` (with `keys`).
  error: (issue: { readonly code?: string; readonly keys?: readonly string[] }) =>
    issue.code === 'unrecognized_keys' || issue.code === 'invalid_key'
      ? `unknown action ${JSON.stringify(issue.keys?.[0])} (an operation action or wake_compute)`
      : issue.code === 'invalid_type'
        ? 'must be an object of action → fault spec'
        : undefined,
});

/** Limits from the spec, overridable for what-if studies and fast tests. */
const limitsSchema = strictObject(
  {
    /** Largest size that can autoscale; bigger computes are fixed and always on (spec: 16 CU). */
    autoscalingMaxCu: positive.default(16),
    /** Widest autoscaling range, max − min (public docs: 8 CU). */
    autoscalingMaxSpreadCu: positive.default(8),
    /** Concurrent client connections through the pooler per compute (spec: 10,000). */
    pooledConnections: positive.default(10_000),
    /** Local temporary disk per compute, GB: a statement needing more fails with 53100 (spec: ~20). */
    tempDiskGb: positive.default(20),
    /** Largest size on the free plan, autoscaling included (seed: 0.25 CU fixed; today: 2 CU). */
    freePlanMaxCu: positive.default(0.25),
    /** Read replicas per project on the free plan; `null`: no limit (seed; today: 3). */
    freePlanMaxReadReplicas: whole(0, 'must be a whole number ≥ 0 (or null: no limit)')
      .nullable()
      .default(null),
  },
  'limit',
);

/**
 * Postgres connection limits per compute: `max_connections` = floor(RAM bytes /
 * `ramBytesPerConnection`), at most `cap`, and `cap` outright from `capFromCu` on (when set);
 * clients get `max_connections − reservedForSuperuser` direct connections; the pooler multiplexes
 * its clients onto a backend pool of `poolerBackendFraction × max_connections`. An autoscaling
 * compute is sized by the minimum (seed spec) or the maximum (`autoscalingSizing`) of its range.
 */
const connectionsSchema = strictObject({
  ramBytesPerConnection: positive.default(9_531_392),
  cap: whole(1, 'must be a whole number ≥ 1').default(4_000),
  capFromCu: positive.nullable().default(null),
  reservedForSuperuser: whole(0, 'must be a whole number ≥ 0').default(0),
  poolerBackendFraction: fraction.default(0.9),
  autoscalingSizing: z.enum(['min', 'max'], { error: 'must be min or max' }).default('min'),
});

/** Compute image releases (weekly), picked up when a compute starts. */
const releasesSchema = strictObject({
  epochMs: whole(Number.MIN_SAFE_INTEGER, 'must be whole ms').default(Date.UTC(2026, 0, 1)),
  first: whole(Number.MIN_SAFE_INTEGER, 'must be a whole number').default(9000),
  intervalMs: wholeMs(1, 'whole ms > 0').default(7 * DAY_MS),
});

/**
 * Periodic availability checks of branches with a compute: the first `intervalMs` after the branch
 * gets one, then each interval `backoff` times the one before while the branch gets no connection
 * (back to `intervalMs` when it does), at most `maxIntervalMs`. `intervalMs: 0` turns them off.
 */
const availabilityChecksSchema = strictObject({
  intervalMs: wholeMs(0, 'whole ms ≥ 0 (0: off)').default(6 * HOUR_MS),
  backoff: satisfying<number>(
    (n) => typeof n === 'number' && Number.isFinite(n) && n >= 1,
    'must be a number ≥ 1',
  ).default(2),
  maxIntervalMs: wholeMs(0).default(7 * DAY_MS),
}).check((context) => {
  if (context.value.maxIntervalMs < context.value.intervalMs)
    context.issues.push({
      code: 'custom',
      message: 'maxIntervalMs must be ≥ intervalMs',
      input: context.value,
    });
});

/**
 * Autoscaling (fidelity.md): demand is sampled every `sampleMs`; the target size keeps CPU load at
 * most `cpuGoal` of the vCPUs and memory at most `memoryGoal` of the RAM. A compute scales up at the
 * next sample after demand rises, and down once demand has stayed lower for `scaleDownAfterMs` (the
 * one-minute load average, modelled as a hold).
 */
const autoscalingSchema = strictObject({
  sampleMs: wholeMs(1, 'whole ms > 0').default(5_000),
  scaleDownAfterMs: wholeMs(0).default(60_000),
  cpuGoal: fraction.default(0.9),
  memoryGoal: fraction.default(0.75),
});

/**
 * Cold caches: right after a start the Local File Cache is empty and a session's first queries are
 * slower. A session opening `t` ms after the start holds its connection `penaltyMs × (1 − t /
 * warmupMs)` longer (nothing once the cache is warm).
 */
const coldCacheSchema = strictObject({
  warmupMs: wholeMs(0).default(60_000),
  penaltyMs: wholeMs(0).default(250),
});

/** How error bodies name their `code`: as the real service, or by computesim's refusal kinds. */
const ERROR_CODE_STYLES = ['service', 'computesim'] as const;

/**
 * Locks (fidelity.md, audit 2026-11-23): while a project has an unfinished operation that locks, the
 * real service refuses every conflicting mutating request on the project with 423. `scope:
 * 'compute-and-branch'` narrows the lock to the operation's own compute and branch (computesim's
 * older rule, for what-if studies). Independently, a project with `maxUnfinishedOperations`
 * unfinished operations (of any kind, background work included) refuses new requests with 423.
 */
const locksSchema = strictObject({
  scope: z
    .enum(['project', 'compute-and-branch'], {
      error: 'must be "project" or "compute-and-branch"',
    })
    .default('project'),
  maxUnfinishedOperations: whole(1, 'must be a whole number ≥ 1').default(10),
});

/**
 * The real service's rate limits (fidelity.md): 700 requests a minute per account and bursts of 40 a
 * second per route, counted in virtual time by `sim.request` (a 429 with `Retry-After` past them).
 * Off by default; `new Simulation({ rateLimits: true })` switches them on.
 */
const rateLimitsSchema = strictObject({
  enabled: z.boolean({ error: 'must be true or false' }).default(false),
  perKeyPerMinute: wholeMs(1, 'a whole number ≥ 1').default(700),
  perRoutePerSecond: wholeMs(1, 'a whole number ≥ 1').default(40),
});

/**
 * The profile as overrides are checked and resolved: every field has its default, nested objects
 * are merged key by key, and an unknown key at any depth is refused.
 */
const profileSchema = strictObject(
  {
    /**
     * The named profile the values start from: `seed` (the seed spec, the default) or `current`
     * (the real service today, `CURRENT_PROFILE`); overrides are laid over it key by key.
     */
    base: z
      .enum(PROFILE_NAMES, { error: `must be one of ${PROFILE_NAMES.join(', ')}` })
      .default('seed'),
    /** What the account's plan allows (sizes, autoscaling, timeouts). */
    plan: z.enum(PLANS, { error: `must be one of ${PLANS.join(', ')}` }).default('paid'),
    /** Region of new projects, e.g. `aws-us-east-2`. */
    regionId: satisfying<string>(
      (s) => typeof s === 'string' && /^[a-z0-9-]{1,60}$/.test(s),
      'must match ^[a-z0-9-]{1,60}$',
    ).default('aws-us-east-2'),
    /** Domain under which compute hosts are named: `<endpoint>.<region>.<hostDomain>`. */
    hostDomain: satisfying<string>(
      (s) => typeof s === 'string' && /^[a-z0-9.-]{1,200}$/.test(s),
      'must be a host name (letters, digits, dots, dashes)',
    ).default('aws.computesim.local'),
    /** Scale-to-zero timeout used when a compute says 0 ("default"), in seconds. */
    defaultSuspendTimeoutSeconds: satisfying<number>(
      isExplicitSuspendTimeout,
      `must be a whole number of seconds in ${SUSPEND_TIMEOUT_RANGE.min}..${SUSPEND_TIMEOUT_RANGE.max}`,
    ).default(300),
    latency: withDefaults(latencySchema),
    /** Faults per action (and for wake-ups); none by default. */
    faults: faultsSchema.default({}),
    limits: withDefaults(limitsSchema),
    /** Compute image releases (weekly), picked up when a compute starts. */
    releases: withDefaults(releasesSchema),
    availabilityChecks: withDefaults(availabilityChecksSchema),
    /** A project unused this long is detached from storage (`tenant_detach`); 0: never. */
    tenantDetachAfterMs: wholeMs(0, 'whole ms ≥ 0 (0: never)').default(7 * DAY_MS),
    autoscaling: withDefaults(autoscalingSchema),
    coldCache: withDefaults(coldCacheSchema),
    /**
     * Ended operations older than this are dropped from state (once a day; the log keeps them), so
     * long runs do not grow without bound. The real service keeps them 6 months (183 days here);
     * fleets of many computes may shorten it to keep memory small. 0: keep them all.
     */
    operationRetentionMs: wholeMs(0, 'whole ms ≥ 0 (0: keep all)').default(183 * DAY_MS),
    /**
     * A deleted project, and a branch deleted without `hard_delete`, stay recoverable this long (the
     * real service's 7 days), then are gone for good. 0: every deletion is final at once.
     */
    recoveryWindowMs: wholeMs(0, 'whole ms ≥ 0 (0: no recovery)').default(7 * DAY_MS),
    rateLimits: withDefaults(rateLimitsSchema),
    connections: withDefaults(connectionsSchema),
    /** What unfinished operations refuse (423): their whole project by default, and a cap. */
    locks: withDefaults(locksSchema),
    /**
     * The `code` of error bodies: `'service'` as the real service writes it (an empty string, the
     * schema's default; the message says what happened), or `'computesim'`'s refusal kinds
     * (`not_found`, `locked`, …) for tests that match on them.
     */
    errorCodes: z
      .enum(ERROR_CODE_STYLES, { error: `must be one of ${ERROR_CODE_STYLES.join(', ')}` })
      .default('service'),
  },
  'setting',
);

/** All tunable numbers of the simulated control plane. */
export type Profile = Immutable<z.output<typeof profileSchema>>;
/** Profile overrides: any subset of the profile, nested objects merged key by key. */
export type ProfileOverrides = Immutable<z.input<typeof profileSchema>>;
/** What a simulation accepts as its profile: overrides, or just the name of a profile. */
export type ProfileChoice = ProfileOverrides | ProfileName;
/** Latency of each kind of control-plane work, as a uniform range. */
export type LatencyProfile = Profile['latency'];
/** Fault injection for one action (see `faults` in the profile). */
export type FaultSpec = Immutable<z.output<typeof faultSpecSchema>>;
/** Limits from the spec, overridable for what-if studies and fast tests. */
export type LimitsProfile = Profile['limits'];
/** Autoscaling: sample period, scale-down hold, CPU and memory goals. */
export type AutoscalingProfile = Profile['autoscaling'];
/** Cold caches: warm-up time and the penalty of a session opening right after a start. */
export type ColdCacheProfile = Profile['coldCache'];
/** How error bodies name their `code` (see `errorCodes` in the profile). */
export type ErrorCodes = (typeof ERROR_CODE_STYLES)[number];
/** Locks: their scope and the per-project cap on unfinished operations. */
export type LocksProfile = Profile['locks'];

/** Rate limits of the public API, applied in virtual time when `enabled`. */
export type RateLimitsProfile = Profile['rateLimits'];

/** Postgres connection limits per compute size (see `connections` in the profile). */
export type ConnectionsProfile = Profile['connections'];

/**
 * The real service today, where it differs from the seed spec (fidelity.md, audit 2026-11-23; the
 * public docs connect/connection-pooling, manage/computes and the read-replica guide):
 * max_connections 104 / 209 / 419 / 839 … 3357 at 8 CU and 4000 from 9 CU (the bytes per connection
 * are the value that reproduces that table), 7 reserved for the superuser, autoscaling computes
 * sized by their maximum; the free plan autoscales up to 2 CU with at most 3 read replicas.
 */
export const CURRENT_PROFILE = deepFreeze({
  connections: {
    ramBytesPerConnection: 10_235_000,
    capFromCu: 9,
    reservedForSuperuser: 7,
    autoscalingSizing: 'max',
  },
  limits: { freePlanMaxCu: 2, freePlanMaxReadReplicas: 3 },
} as const satisfies ProfileOverrides);

/** A profile choice as overrides (a name becomes `{ base: name }`), for adding overrides to it. */
export function asOverrides(choice: ProfileChoice | undefined): ProfileOverrides {
  if (choice === undefined) return {};
  return typeof choice === 'string' ? { base: choice } : choice;
}

/** The schema of fault specs by action (`faults`), for the testing toolkit's fault profiles. */
export const FAULTS_SCHEMA = faultsSchema;

/** The schema of profile overrides, for definitions that embed a profile (studies, scenarios). */
export const PROFILE_SCHEMA = profileSchema;

/** The defaults, from the spec and the typical durations seen on the real service. */
export const DEFAULT_PROFILE: Profile = deepFreeze(profileSchema.parse({}));

/** The fault spec that applies to an operation (its wake-up spec first, for a wake-up). */
export function faultFor(
  profile: Profile,
  action: OperationAction,
  latency: keyof LatencyProfile,
): FaultSpec | undefined {
  return (
    (latency === 'wake_compute' ? profile.faults.wake_compute : undefined) ?? profile.faults[action]
  );
}

/**
 * Merges overrides onto the defaults and validates the result; errors name the offending key by
 * its full path (`profile.autoscaling: unknown field "minCu" (known: …)`). Parses once per
 * simulation; no overrides (`{}`) is the shared default profile, with no parsing at all.
 */
export function resolveProfile(overrides: unknown = {}): Result<Profile, string> {
  const given = typeof overrides === 'string' ? { base: overrides } : overrides;
  if (isEmptyObject(given)) return DEFAULT_RESULT;
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    return {
      ok: false,
      error: 'profile overrides must be an object or a profile name (seed, current)',
    };
  const base = (given as { base?: unknown }).base;
  return parseInput(
    profileSchema,
    base === 'current' ? layered(CURRENT_PROFILE, given) : given,
    'profile',
  );
}

/**
 * The profile `profile` becomes with `overrides` laid over it (nested objects merged key by key),
 * checked as a whole; errors name the path as `resolveProfile`'s do. The base profile cannot
 * change: it is where values start, and these are values laid over the ones in force.
 */
export function changedProfile(profile: Profile, overrides: unknown): Result<Profile, string> {
  if (!isPlainObject(overrides))
    return { ok: false, error: 'profile changes must be an object of settings' };
  if ('base' in overrides)
    return {
      ok: false,
      error:
        'profile.base cannot change: change the values themselves (e.g. defaultSuspendTimeoutSeconds)',
    };
  return resolveProfile(layered(profile, overrides));
}

/** `over` laid onto `under` key by key (plain objects merged at every depth, anything else replaced). */
function layered(under: object, over: object): object {
  const result: Record<string, unknown> = { ...under };
  for (const [key, value] of Object.entries(over)) {
    const below = result[key];
    result[key] = isPlainObject(below) && isPlainObject(value) ? layered(below, value) : value;
  }
  return result;
}

/** An object literal, or one made with `Object.create(null)` (as some generators of input do). */
function isPlainObject(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

const DEFAULT_RESULT: Result<Profile, string> = Object.freeze({ ok: true, value: DEFAULT_PROFILE });

function isEmptyObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return (
    Object.getOwnPropertySymbols(value).length === 0 &&
    Object.getPrototypeOf(value) === Object.prototype
  );
}

/**
 * `schema` with every field defaulted when absent: the defaults are parsed once, here, and shared
 * (frozen), so an override that leaves a nested object out costs no parsing of it.
 */
function withDefaults<S extends z.ZodType<object, object>>(schema: S) {
  return schema.default(deepFreeze(schema.parse({})) as z.util.NoUndefined<z.output<S>>);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
