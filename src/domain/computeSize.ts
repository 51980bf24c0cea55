/**
 * Compute sizes in Compute Units (1 CU = 1 vCPU + 4 GB RAM): which sizes exist, what each provides,
 * and the rules on fixed and autoscaling ranges (from the spec's size table and limits).
 */

/** Every allowed size: 0.25, 0.5, each integer 1..16, each even integer 18..56. */
export const ALLOWED_CU: readonly number[] = [
  0.25,
  0.5,
  ...Array.from({ length: 16 }, (_, i) => i + 1),
  ...Array.from({ length: 20 }, (_, i) => 18 + 2 * i),
];

const ALLOWED = new Set(ALLOWED_CU);

/** Bytes of RAM per CU. */
export const RAM_BYTES_PER_CU = 4 * 1024 ** 3;
/** RAM bytes per allowed connection (matches the spec's max_connections column). */
const RAM_BYTES_PER_CONNECTION = 9_531_392;
/** Ceiling of max_connections. */
const MAX_CONNECTIONS_CAP = 4_000;

/** True for an allowed size. */
function isAllowedCu(cu: unknown): cu is number {
  return typeof cu === 'number' && ALLOWED.has(cu);
}

/** What one size provides. */
export interface SizeFacts {
  readonly cu: number;
  readonly vcpu: number;
  readonly ramBytes: number;
  /** Local File Cache: 80% of RAM. */
  readonly lfcBytes: number;
  readonly maxConnections: number;
  /** 0.25 and 0.5 CU run on shared vCPUs. */
  readonly shared: boolean;
}

/** The spec's size table row for `cu`. */
export function sizeFacts(cu: number): SizeFacts {
  const ramBytes = cu * RAM_BYTES_PER_CU;
  return {
    cu,
    vcpu: cu,
    ramBytes,
    lfcBytes: ramBytes * 0.8,
    maxConnections: maxConnections(cu),
    shared: cu < 1,
  };
}

/** max_connections of a size: floor(RAM / 9,531,392), capped at 4,000. */
export function maxConnections(cu: number): number {
  return Math.min(
    MAX_CONNECTIONS_CAP,
    Math.floor((cu * RAM_BYTES_PER_CU) / RAM_BYTES_PER_CONNECTION),
  );
}

/** The connection rules of a profile (`profile.connections`). */
export interface ConnectionRules {
  readonly ramBytesPerConnection: number;
  readonly cap: number;
  readonly capFromCu: number | null;
  readonly reservedForSuperuser: number;
  readonly poolerBackendFraction: number;
  readonly autoscalingSizing: 'min' | 'max';
}

/** What a compute's connection limits are. */
export interface ConnectionLimits {
  /** Postgres `max_connections`. */
  readonly maxConnections: number;
  /** Direct client connections admitted: `max_connections` less those reserved for the superuser. */
  readonly clientConnections: number;
  /** Backend connections the pooler multiplexes its clients onto (per user and database). */
  readonly poolerBackendPool: number;
}

/**
 * The connection limits of a compute sized `[minCu, maxCu]` under `rules`: an autoscaling compute
 * takes the size its rules name (the minimum in the seed spec, the maximum today).
 */
export function connectionLimits(
  minCu: number,
  maxCu: number,
  rules: ConnectionRules,
): ConnectionLimits {
  const cu = rules.autoscalingSizing === 'max' ? maxCu : minCu;
  const maxConnections =
    rules.capFromCu !== null && cu >= rules.capFromCu
      ? rules.cap
      : Math.min(rules.cap, Math.floor((cu * RAM_BYTES_PER_CU) / rules.ramBytesPerConnection));
  return {
    maxConnections,
    clientConnections: Math.max(0, maxConnections - rules.reservedForSuperuser),
    poolerBackendPool: Math.floor(maxConnections * rules.poolerBackendFraction),
  };
}

/** Why a `[min, max]` range is not allowed under `limits`, or `undefined` when it is. */
export function sizeRangeProblem(
  min: number,
  max: number,
  limits: { readonly autoscalingMaxCu: number; readonly autoscalingMaxSpreadCu: number },
): string | undefined {
  if (!isAllowedCu(min))
    return `autoscaling_limit_min_cu ${String(min)} is not an allowed size (${describeAllowed()})`;
  if (!isAllowedCu(max))
    return `autoscaling_limit_max_cu ${String(max)} is not an allowed size (${describeAllowed()})`;
  if (min > max)
    return `autoscaling_limit_min_cu (${min}) must not exceed autoscaling_limit_max_cu (${max})`;
  if (min !== max && max > limits.autoscalingMaxCu) {
    return `autoscaling is available up to ${limits.autoscalingMaxCu} CU; sizes above that are fixed (min = max)`;
  }
  if (max - min > limits.autoscalingMaxSpreadCu) {
    return `autoscaling range ${min}-${max} CU is wider than ${limits.autoscalingMaxSpreadCu} CU (max − min)`;
  }
  return undefined;
}

function describeAllowed(): string {
  return '0.25, 0.5, 1 to 16, or an even number from 18 to 56';
}
