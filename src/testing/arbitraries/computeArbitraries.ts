/**
 * fast-check arbitraries for compute settings: allowed sizes, autoscaling ranges the API accepts
 * (within the limits of the profile), suspend timeouts and plans.
 */
import fc from 'fast-check';
import { ALLOWED_CU } from '../../domain/computeSize.js';
import { DEFAULT_PROFILE } from '../../domain/profile.js';
import { PLANS, type Plan } from '../../domain/plan.js';

const { autoscalingMaxCu, autoscalingMaxSpreadCu } = DEFAULT_PROFILE.limits;
const AUTOSCALING_CU = ALLOWED_CU.filter((cu) => cu <= autoscalingMaxCu);

/** An allowed compute size (0.25, 0.5, 1…16, 18…56 CU). */
export function computeSize(): fc.Arbitrary<number> {
  return fc.constantFrom(...ALLOWED_CU);
}

/** An autoscaling range `{ minCu, maxCu }` the default profile accepts (max − min ≤ 8, max ≤ 16). */
export function autoscalingRange(): fc.Arbitrary<{ minCu: number; maxCu: number }> {
  return fc
    .tuple(fc.constantFrom(...AUTOSCALING_CU), fc.constantFrom(...AUTOSCALING_CU))
    .map(([a, b]) => ({ minCu: Math.min(a, b), maxCu: Math.max(a, b) }))
    .filter(({ minCu, maxCu }) => maxCu - minCu <= autoscalingMaxSpreadCu);
}

/** A range the API refuses: min above max, a size that does not exist, or too wide a spread. */
export function invalidAutoscalingRange(): fc.Arbitrary<{ minCu: number; maxCu: number }> {
  return fc.oneof(
    autoscalingRange()
      .filter(({ minCu, maxCu }) => minCu < maxCu)
      .map(({ minCu, maxCu }) => ({ minCu: maxCu, maxCu: minCu })),
    fc.constantFrom(0.3, 0.75, 17, 3.5, -1, 0).map((cu) => ({ minCu: cu, maxCu: 2 })),
    fc.constant({ minCu: 0.25, maxCu: 10 }),
  );
}

/** A scale-to-zero setting in seconds: 0 (the default), -1 (never), or 60 s … 1 week. */
export function suspendTimeoutSeconds(): fc.Arbitrary<number> {
  return fc.oneof(fc.constantFrom(0, -1), fc.integer({ min: 60, max: 604_800 }));
}

/** A plan the simulator knows. */
export function plan(): fc.Arbitrary<Plan> {
  return fc.constantFrom(...PLANS);
}
