/**
 * Settings of a new compute when the request does not give them, and the rules every value must
 * follow (suspend timeout range, provisioners, pooler modes).
 */
import { SUSPEND_TIMEOUT_RANGE } from './suspendTimeout.js';

/** Provisioners of the public API; only `k8s-neonvm` autoscales. */
export const PROVISIONERS = ['k8s-pod', 'k8s-neonvm', 'serverless-platform'] as const;

/** Pooler modes of the public API (the schema lists `transaction` only). */
export const POOLER_MODES = ['transaction'] as const;

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

/** Why a `suspend_timeout_seconds` value is not allowed, or `undefined`. */
export function suspendTimeoutProblem(seconds: number): string | undefined {
  if (seconds === 0 || seconds === -1) return undefined;
  if (
    Number.isInteger(seconds) &&
    seconds >= SUSPEND_TIMEOUT_RANGE.min &&
    seconds <= SUSPEND_TIMEOUT_RANGE.max
  ) {
    return undefined;
  }
  return `suspend_timeout_seconds must be 0 (default), -1 (never) or ${SUSPEND_TIMEOUT_RANGE.min}..${SUSPEND_TIMEOUT_RANGE.max}`;
}
