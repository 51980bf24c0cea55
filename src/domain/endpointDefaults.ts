/**
 * Settings of a new compute when the request does not give them, and the rules a value must follow
 * beyond its type (the suspend timeout's range, the provisioners computesim knows).
 */

/** Provisioners of the public API; only `k8s-neonvm` autoscales. */
const PROVISIONERS = ['k8s-pod', 'k8s-neonvm', 'serverless-platform'] as const;

/** Bounds of an explicit `suspend_timeout_seconds` (besides 0, the default, and -1, never). */
export const SUSPEND_TIMEOUT_RANGE = { min: 60, max: 604_800 } as const;

/** Defaults of a new compute. */
export const ENDPOINT_DEFAULTS = {
  minCu: 0.25,
  maxCu: 0.25,
  suspendTimeoutSeconds: 0,
  poolerEnabled: false,
  poolerMode: 'transaction',
  disabled: false,
  passwordlessAccess: true,
  pgSettings: {},
  provisioner: 'k8s-neonvm',
} as const;

/** Whether `seconds` is an explicit scale-to-zero timeout: whole seconds in the range. */
export function isExplicitSuspendTimeout(seconds: unknown): seconds is number {
  return (
    Number.isInteger(seconds) &&
    (seconds as number) >= SUSPEND_TIMEOUT_RANGE.min &&
    (seconds as number) <= SUSPEND_TIMEOUT_RANGE.max
  );
}

/** Why a `suspend_timeout_seconds` value is not allowed, or `undefined`. */
export function suspendTimeoutProblem(seconds: number): string | undefined {
  if (seconds === 0 || seconds === -1 || isExplicitSuspendTimeout(seconds)) return undefined;
  return `suspend_timeout_seconds must be 0 (default), -1 (never) or ${SUSPEND_TIMEOUT_RANGE.min}..${SUSPEND_TIMEOUT_RANGE.max}`;
}

/** Why `provisioner` is not one computesim knows (the public schema takes any string), or `undefined`. */
export function provisionerProblem(provisioner: string): string | undefined {
  return (PROVISIONERS as readonly string[]).includes(provisioner)
    ? undefined
    : `provisioner must be one of ${PROVISIONERS.join(', ')}`;
}
