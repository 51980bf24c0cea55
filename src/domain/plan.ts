/**
 * Plans and what they allow: the free plan runs shared 0.25 CU computes with the default scale-to-zero
 * timeout; paid plans choose sizes, autoscaling and timeouts.
 */

/** The plans the simulator knows. */
export const PLANS = ['free', 'paid'] as const;

/** A plan. */
export type Plan = (typeof PLANS)[number];

/** Why a compute setting is not allowed on `plan`, or `undefined`. */
export function planProblem(
  plan: Plan,
  minCu: number,
  maxCu: number,
  suspendTimeoutSeconds: number,
): string | undefined {
  if (plan === 'paid') return undefined;
  if (minCu !== 0.25 || maxCu !== 0.25) {
    return 'the free plan runs 0.25 CU computes only; larger sizes and autoscaling need a paid plan';
  }
  if (suspendTimeoutSeconds !== 0)
    return 'the free plan uses the default scale-to-zero timeout; changing it needs a paid plan';
  return undefined;
}
