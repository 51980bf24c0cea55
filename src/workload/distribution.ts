/**
 * Random quantities of a workload (session lengths, CPU demand): a fixed value or a distribution,
 * written by users in their units and sampled from a seeded stream.
 */
import { err, ok, type Result } from '../core/result.js';
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

/**
 * Resolves a user's quantity with `parse` (for example a duration parser), checking that every value
 * is finite and not negative. The error names `what`.
 */
export function resolveDistribution<V>(
  input: DistributionInput<V>,
  parse: (value: V) => Result<number, string>,
  what: string,
): Result<Distribution, string> {
  const value = (v: V, field: string): Result<number, string> => {
    const parsed = parse(v);
    if (!parsed.ok) return err(`${what}${field}: ${parsed.error}`);
    if (!Number.isFinite(parsed.value) || parsed.value < 0)
      return err(`${what}${field} must be a finite number ≥ 0, got ${String(v)}`);
    return parsed;
  };
  if (typeof input !== 'object' || input === null || !('dist' in input)) {
    const fixed = value(input as V, '');
    return fixed.ok ? ok({ dist: 'fixed', value: fixed.value }) : fixed;
  }
  switch (input.dist) {
    case 'fixed': {
      const v = value(input.value, '.value');
      return v.ok ? ok({ dist: 'fixed', value: v.value }) : v;
    }
    case 'uniform': {
      const min = value(input.min, '.min');
      if (!min.ok) return min;
      const max = value(input.max, '.max');
      if (!max.ok) return max;
      if (min.value > max.value) return err(`${what}: uniform min must not exceed max`);
      return ok({ dist: 'uniform', min: min.value, max: max.value });
    }
    case 'exponential': {
      const mean = value(input.mean, '.mean');
      return mean.ok ? ok({ dist: 'exponential', mean: mean.value }) : mean;
    }
    case 'lognormal': {
      const median = value(input.median, '.median');
      if (!median.ok) return median;
      if (typeof input.sigma !== 'number' || !Number.isFinite(input.sigma) || input.sigma < 0)
        return err(`${what}.sigma must be a finite number ≥ 0`);
      return ok({ dist: 'lognormal', median: median.value, sigma: input.sigma });
    }
    default:
      return err(
        `${what}: unknown dist ${JSON.stringify((input as { dist: unknown }).dist)} (fixed, uniform, exponential or lognormal)`,
      );
  }
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

/** The mean of a distribution (for reports and sanity checks). */
export function meanOf(distribution: Distribution): number {
  switch (distribution.dist) {
    case 'fixed':
      return distribution.value;
    case 'uniform':
      return (distribution.min + distribution.max) / 2;
    case 'exponential':
      return distribution.mean;
    case 'lognormal':
      return distribution.median * Math.exp((distribution.sigma * distribution.sigma) / 2);
  }
}
