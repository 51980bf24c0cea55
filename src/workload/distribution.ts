/**
 * Random quantities of a workload (session lengths, CPU demand): a fixed value or a distribution,
 * written by users in their units and sampled from a seeded stream.
 */
import { z } from 'zod';
import { nonNegative, strictObject } from '../core/schema.js';
import type { RandomSource } from '../core/randomSource.js';

/**
 * A quantity as users write it: a plain value (`'2m'`, `0.5`) or a distribution of such values.
 * `lognormal` is set by its median and `sigma` (the spread of the log; 0.5 is moderate, 1 is wide).
 */
export type DistributionInput<V> =
  | V
  | { readonly dist: 'fixed'; readonly value: V }
  | { readonly dist: 'uniform'; readonly min: V; readonly max: V }
  | { readonly dist: 'exponential'; readonly mean: V }
  | { readonly dist: 'lognormal'; readonly median: V; readonly sigma: number };

/** A distribution over numbers, resolved (durations in milliseconds). JSON, so logs can hold it. */
export type Distribution =
  | { readonly dist: 'fixed'; readonly value: number }
  | { readonly dist: 'uniform'; readonly min: number; readonly max: number }
  | { readonly dist: 'exponential'; readonly mean: number }
  | { readonly dist: 'lognormal'; readonly median: number; readonly sigma: number };

const DISTS = 'fixed, uniform, exponential or lognormal';

/**
 * The schema of a quantity as users write it, each value checked by `value` (for example a
 * duration parsed to ms): a plain value is a fixed distribution. Distribution objects are strict.
 */
export function distributionSchema<V>(value: z.ZodType<number, V>) {
  const byDist = z.discriminatedUnion(
    'dist',
    [
      strictObject({ dist: z.literal('fixed'), value }),
      strictObject({ dist: z.literal('uniform'), min: value, max: value }).check((context) => {
        if (context.value.min > context.value.max)
          context.issues.push({
            code: 'custom',
            message: 'uniform min must not exceed max',
            input: context.value,
          });
      }),
      strictObject({ dist: z.literal('exponential'), mean: value }),
      strictObject({
        dist: z.literal('lognormal'),
        median: value,
        sigma: nonNegative(),
      }),
    ],
    {
      error: (issue) =>
        issue.code === 'invalid_union'
          ? `unknown dist ${JSON.stringify((issue.input as { dist?: unknown }).dist)} (${DISTS})`
          : undefined,
    },
  );
  // The object form first: for an object, its problem is the one to report (see describeIssues).
  return z.union([byDist, value.transform((v) => ({ dist: 'fixed' as const, value: v }))]);
}

/** One draw of `distribution` from `random`. */
export function sample(distribution: Distribution, random: RandomSource): number {
  switch (distribution.dist) {
    case 'fixed':
      return distribution.value;
    case 'uniform':
      return random.between(distribution.min, distribution.max);
    case 'exponential':
      return random.exponential(distribution.mean);
    case 'lognormal': {
      // Box-Muller: one standard normal from two uniforms.
      const u = 1 - random.float();
      const v = random.float();
      const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
      return distribution.median * Math.exp(distribution.sigma * normal);
    }
  }
}
