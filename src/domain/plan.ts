/**
 * Plans and what they allow: the free plan runs small computes (0.25 CU in the seed spec, autoscaling
 * up to 2 CU today) with the default scale-to-zero timeout, and a limited number of read replicas
 * (today: 3 per project); paid plans choose sizes, autoscaling and timeouts.
 */

/** The plans the simulator knows. */
export const PLANS = ['free', 'paid'] as const;

/** A plan. */
export type Plan = (typeof PLANS)[number];

/**
 * Why a compute setting is not allowed on `plan`, or `undefined`. `freePlanMaxCu` is the largest
 * size the free plan allows (0.25 in the seed spec: fixed computes only; 2 today, autoscaling).
 */
export function planProblem(
  plan: Plan,
  minCu: number,
  maxCu: number,
  suspendTimeoutSeconds: number,
  freePlanMaxCu = 0.25,
): string | undefined {
  if (plan === 'paid') return undefined;
  if (maxCu > freePlanMaxCu) {
    return freePlanMaxCu === 0.25
      ? 'the free plan runs 0.25 CU computes only; larger sizes and autoscaling need a paid plan'
      : `the free plan runs computes up to ${freePlanMaxCu} CU (autoscaling included); larger sizes need a paid plan`;
  }
  if (suspendTimeoutSeconds !== 0)
    return 'the free plan uses the default scale-to-zero timeout; changing it needs a paid plan';
  return undefined;
}

/**
 * Why one more read replica is not allowed in a project that has `replicas` of them on `plan`
 * (`limit` null: no limit), or `undefined`.
 */
export function readReplicaProblem(
  plan: Plan,
  replicas: number,
  limit: number | null,
): string | undefined {
  if (plan === 'paid' || limit === null || replicas < limit) return undefined;
  return `the free plan allows at most ${limit} read replicas per project; more need a paid plan`;
}
