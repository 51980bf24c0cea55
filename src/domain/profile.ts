/**
 * The profile: every number of the control plane that a user may override (latencies, timeouts,
 * region, host names), in one object, with validated deep overrides.
 */
import { err, ok, type Result } from '../core/result.js';
import { OPERATION_ACTIONS, type OperationAction } from './operationAction.js';
import type { ReleaseSchedule } from './computeRelease.js';
import { PLANS, type Plan } from './plan.js';

/** A duration range `[min, max]` in milliseconds; a draw is uniform in it. */
export type LatencyRange = readonly [minMs: number, maxMs: number];

/** Latency of each kind of control-plane work, as a uniform range. */
export interface LatencyProfile {
  readonly create_timeline: LatencyRange;
  /** The first start of a newly created compute. */
  readonly start_compute: LatencyRange;
  /** Waking an idle compute ("a few hundred milliseconds"). */
  readonly wake_compute: LatencyRange;
  readonly suspend_compute: LatencyRange;
  readonly apply_config: LatencyRange;
  readonly create_branch: LatencyRange;
  readonly check_availability: LatencyRange;
  readonly tenant_detach: LatencyRange;
  readonly tenant_reattach: LatencyRange;
}

/**
 * Periodic availability checks of branches with a compute: the first `intervalMs` after the branch
 * gets one, then each interval `backoff` times the one before while the branch gets no connection
 * (back to `intervalMs` when it does), at most `maxIntervalMs`. `intervalMs: 0` turns them off.
 */
export interface AvailabilityChecksProfile {
  readonly intervalMs: number;
  readonly backoff: number;
  readonly maxIntervalMs: number;
}

/**
 * Fault injection for one action: each attempt fails with probability `failureRate`; a failed
 * operation is retried after `retryDelayMs` (status `failed`, `failures_count` grows) until
 * `maxRetries` retries have failed too, when it ends in `error`. With `delayRate`, an operation that
 * would run at once first stays `scheduling` for a time drawn from `delayMs` (the control plane is
 * slow to pick it up).
 */
export interface FaultSpec {
  readonly failureRate: number;
  readonly maxRetries: number;
  readonly retryDelayMs: number;
  readonly delayRate?: number;
  readonly delayMs?: LatencyRange;
}

/**
 * What faults are keyed by: an operation action, or `wake_compute` for the starts that wake an idle
 * compute (they take precedence over `start_compute` for those).
 */
export type FaultTarget = OperationAction | 'wake_compute';

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

/** Limits from the spec, overridable for what-if studies and fast tests. */
export interface LimitsProfile {
  /** Largest size that can autoscale; bigger computes are fixed and always on (spec: 16 CU). */
  readonly autoscalingMaxCu: number;
  /** Widest autoscaling range, max − min (public docs: 8 CU). */
  readonly autoscalingMaxSpreadCu: number;
  /** Concurrent client connections through the pooler per compute (spec: 10,000). */
  readonly pooledConnections: number;
  /** Local temporary disk per compute, GB: a statement needing more fails with 53100 (spec: ~20). */
  readonly tempDiskGb: number;
}

/**
 * Autoscaling (fidelity.md): demand is sampled every `sampleMs`; the target size keeps CPU load at
 * most `cpuGoal` of the vCPUs and memory at most `memoryGoal` of the RAM. A compute scales up at the
 * next sample after demand rises, and down once demand has stayed lower for `scaleDownAfterMs` (the
 * one-minute load average, modelled as a hold).
 */
export interface AutoscalingProfile {
  readonly sampleMs: number;
  readonly scaleDownAfterMs: number;
  readonly cpuGoal: number;
  readonly memoryGoal: number;
}

/**
 * Cold caches: right after a start the Local File Cache is empty and a session's first queries are
 * slower. A session opening `t` ms after the start holds its connection `penaltyMs × (1 − t /
 * warmupMs)` longer (nothing once the cache is warm).
 */
export interface ColdCacheProfile {
  readonly warmupMs: number;
  readonly penaltyMs: number;
}

/** All tunable numbers of the simulated control plane. */
export interface Profile {
  /** What the account's plan allows (sizes, autoscaling, timeouts). */
  readonly plan: Plan;
  /** Region of new projects, e.g. `aws-us-east-2`. */
  readonly regionId: string;
  /** Domain under which compute hosts are named: `<endpoint>.<region>.<hostDomain>`. */
  readonly hostDomain: string;
  /** Scale-to-zero timeout used when a compute says 0 ("default"), in seconds. */
  readonly defaultSuspendTimeoutSeconds: number;
  readonly latency: LatencyProfile;
  /** Faults per action (and for wake-ups); none by default. */
  readonly faults: Readonly<Partial<Record<FaultTarget, FaultSpec>>>;
  readonly limits: LimitsProfile;
  /** Compute image releases (weekly), picked up when a compute starts. */
  readonly releases: ReleaseSchedule;
  readonly availabilityChecks: AvailabilityChecksProfile;
  /** A project unused this long is detached from storage (`tenant_detach`); 0: never. */
  readonly tenantDetachAfterMs: number;
  readonly autoscaling: AutoscalingProfile;
  readonly coldCache: ColdCacheProfile;
  /**
   * Ended operations older than this are dropped from state (once a day; the log keeps them), so
   * long runs do not grow without bound. 0: keep them all.
   */
  readonly operationRetentionMs: number;
}

/** The defaults, from the spec and the typical durations seen on the real service. */
export const DEFAULT_PROFILE: Profile = {
  plan: 'paid',
  regionId: 'aws-us-east-2',
  hostDomain: 'aws.computesim.local',
  defaultSuspendTimeoutSeconds: 300,
  latency: {
    create_timeline: [2_000, 4_000],
    start_compute: [1_000, 5_000],
    wake_compute: [200, 600],
    suspend_compute: [100, 400],
    apply_config: [50, 100],
    create_branch: [100, 200],
    check_availability: [2_000, 5_000],
    tenant_detach: [1_000, 3_000],
    tenant_reattach: [1_000, 3_000],
  },
  faults: {},
  limits: {
    autoscalingMaxCu: 16,
    autoscalingMaxSpreadCu: 8,
    pooledConnections: 10_000,
    tempDiskGb: 20,
  },
  releases: { epochMs: Date.UTC(2026, 0, 1), first: 9000, intervalMs: 7 * 86_400_000 },
  availabilityChecks: { intervalMs: 6 * 3_600_000, backoff: 2, maxIntervalMs: 7 * 86_400_000 },
  tenantDetachAfterMs: 7 * 86_400_000,
  autoscaling: { sampleMs: 5_000, scaleDownAfterMs: 60_000, cpuGoal: 0.9, memoryGoal: 0.75 },
  coldCache: { warmupMs: 60_000, penaltyMs: 250 },
  operationRetentionMs: 86_400_000,
};

/** Profile overrides: any subset of the profile, nested objects merged key by key. */
export type ProfileOverrides = {
  readonly [K in keyof Profile]?: Profile[K] extends LatencyProfile
    ? Partial<LatencyProfile>
    : Profile[K] extends LimitsProfile
      ? Partial<LimitsProfile>
      : Profile[K];
};

const ACTIONS: ReadonlySet<string> = new Set(OPERATION_ACTIONS);

/** Merges overrides onto the defaults and validates the result; errors name the offending key. */
export function resolveProfile(overrides: unknown = {}): Result<Profile, string> {
  if (!isPlainObject(overrides)) return err('profile overrides must be an object');
  for (const key of Object.keys(overrides)) {
    if (!(key in DEFAULT_PROFILE))
      return err(
        `profile: unknown setting "${key}" (known: ${Object.keys(DEFAULT_PROFILE).join(', ')})`,
      );
  }
  const latencyOverrides = overrides['latency'] ?? {};
  if (!isPlainObject(latencyOverrides)) return err('profile.latency must be an object');
  for (const [key, range] of Object.entries(latencyOverrides)) {
    if (!(key in DEFAULT_PROFILE.latency)) {
      return err(
        `profile.latency: unknown kind "${key}" (known: ${Object.keys(DEFAULT_PROFILE.latency).join(', ')})`,
      );
    }
    if (!isRange(range))
      return err(
        `profile.latency.${key} must be [minMs, maxMs] with 0 ≤ min ≤ max, whole milliseconds`,
      );
  }
  const faults = overrides['faults'] ?? {};
  if (!isPlainObject(faults)) return err('profile.faults must be an object of action → fault spec');
  for (const [action, spec] of Object.entries(faults)) {
    if (!ACTIONS.has(action) && action !== 'wake_compute')
      return err(
        `profile.faults: unknown action "${action}" (an operation action or wake_compute)`,
      );
    const problem = faultProblem(spec);
    if (problem !== undefined) return err(`profile.faults.${action}: ${problem}`);
  }
  const limits = overrides['limits'] ?? {};
  if (!isPlainObject(limits)) return err('profile.limits must be an object');
  for (const [key, value] of Object.entries(limits)) {
    if (!(key in DEFAULT_PROFILE.limits)) {
      return err(
        `profile.limits: unknown limit "${key}" (known: ${Object.keys(DEFAULT_PROFILE.limits).join(', ')})`,
      );
    }
    if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value))
      return err(`profile.limits.${key} must be a positive number`);
  }
  const profile = {
    ...DEFAULT_PROFILE,
    ...overrides,
    latency: { ...DEFAULT_PROFILE.latency, ...latencyOverrides },
    faults: { ...faults },
    limits: { ...DEFAULT_PROFILE.limits, ...limits },
  } as Profile;
  if (!(PLANS as readonly unknown[]).includes(profile.plan))
    return err(`profile.plan must be one of ${PLANS.join(', ')}`);
  const nested = nestedProblem(profile);
  if (nested !== undefined) return err(nested);
  if (typeof profile.regionId !== 'string' || !/^[a-z0-9-]{1,60}$/.test(profile.regionId)) {
    return err('profile.regionId must match ^[a-z0-9-]{1,60}$');
  }
  if (typeof profile.hostDomain !== 'string' || !/^[a-z0-9.-]{1,200}$/.test(profile.hostDomain)) {
    return err('profile.hostDomain must be a host name (letters, digits, dots, dashes)');
  }
  const timeout = profile.defaultSuspendTimeoutSeconds;
  if (!Number.isSafeInteger(timeout) || timeout < 60 || timeout > 604_800) {
    return err(
      'profile.defaultSuspendTimeoutSeconds must be a whole number of seconds in 60..604800',
    );
  }
  return ok(profile);
}

/** Checks the nested settings that are replaced as a whole (releases, availability checks). */
function nestedProblem(profile: Profile): string | undefined {
  const { releases, availabilityChecks: checks, tenantDetachAfterMs } = profile;
  const whole = (n: unknown) => Number.isSafeInteger(n);
  if (
    !isPlainObject(releases) ||
    !whole(releases.epochMs) ||
    !whole(releases.first) ||
    !whole(releases.intervalMs) ||
    releases.intervalMs <= 0
  ) {
    return 'profile.releases must be { epochMs, first, intervalMs > 0 }, whole numbers';
  }
  if (
    !isPlainObject(checks) ||
    !whole(checks.intervalMs) ||
    !whole(checks.maxIntervalMs) ||
    checks.intervalMs < 0 ||
    checks.maxIntervalMs < checks.intervalMs ||
    !Number.isFinite(checks.backoff) ||
    checks.backoff < 1
  ) {
    return 'profile.availabilityChecks must be { intervalMs ≥ 0 (0: off), backoff ≥ 1, maxIntervalMs ≥ intervalMs }, whole ms';
  }
  if (!whole(tenantDetachAfterMs) || tenantDetachAfterMs < 0)
    return 'profile.tenantDetachAfterMs must be whole ms ≥ 0 (0: never)';
  if (!whole(profile.operationRetentionMs) || profile.operationRetentionMs < 0)
    return 'profile.operationRetentionMs must be whole ms ≥ 0 (0: keep all)';
  const scaling = profile.autoscaling;
  const fraction = (n: unknown) => typeof n === 'number' && n > 0 && n <= 1;
  if (
    !isPlainObject(scaling) ||
    !whole(scaling.sampleMs) ||
    scaling.sampleMs <= 0 ||
    !whole(scaling.scaleDownAfterMs) ||
    scaling.scaleDownAfterMs < 0 ||
    !fraction(scaling.cpuGoal) ||
    !fraction(scaling.memoryGoal)
  )
    return 'profile.autoscaling must be { sampleMs > 0, scaleDownAfterMs ≥ 0 (whole ms), cpuGoal and memoryGoal in (0, 1] }';
  const cache = profile.coldCache;
  if (
    !isPlainObject(cache) ||
    !whole(cache.warmupMs) ||
    cache.warmupMs < 0 ||
    !whole(cache.penaltyMs) ||
    cache.penaltyMs < 0
  )
    return 'profile.coldCache must be { warmupMs ≥ 0, penaltyMs ≥ 0 }, whole ms';
  return undefined;
}

function faultProblem(spec: unknown): string | undefined {
  if (!isPlainObject(spec)) return 'must be { failureRate, maxRetries, retryDelayMs }';
  const { failureRate, maxRetries, retryDelayMs } = spec;
  if (typeof failureRate !== 'number' || !(failureRate >= 0 && failureRate <= 1))
    return 'failureRate must be in 0..1';
  if (!Number.isSafeInteger(maxRetries) || (maxRetries as number) < 0)
    return 'maxRetries must be a whole number ≥ 0';
  if (!Number.isSafeInteger(retryDelayMs) || (retryDelayMs as number) < 0)
    return 'retryDelayMs must be whole milliseconds ≥ 0';
  const { delayRate, delayMs } = spec;
  if (
    delayRate !== undefined &&
    !(typeof delayRate === 'number' && delayRate >= 0 && delayRate <= 1)
  )
    return 'delayRate must be in 0..1';
  if (delayMs !== undefined && !isRange(delayMs))
    return 'delayMs must be [minMs, maxMs] with 0 ≤ min ≤ max, whole milliseconds';
  if ((delayRate ?? 0) > 0 && delayMs === undefined) return 'delayRate needs delayMs';
  const extra = Object.keys(spec).filter(
    (k) => !['failureRate', 'maxRetries', 'retryDelayMs', 'delayRate', 'delayMs'].includes(k),
  );
  return extra.length > 0 ? `unknown field "${extra[0]}"` : undefined;
}

function isRange(value: unknown): value is LatencyRange {
  return (
    Array.isArray(value) &&
    value.length === 2 &&
    value.every((n) => Number.isSafeInteger(n) && (n as number) >= 0) &&
    (value[0] as number) <= (value[1] as number)
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
