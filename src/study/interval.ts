/**
 * Mean and 95% confidence interval of a figure across seeds (Student's t, two-sided), so a sweep
 * says how much of a difference is the setting and how much is luck.
 */

/** A mean with its 95% interval; `low`/`high` are `null` with fewer than two samples. */
export interface MeanInterval {
  readonly n: number;
  readonly mean: number;
  readonly low: number | null;
  readonly high: number | null;
}

/** Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom. */
const T_975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145,
  2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048,
  2.045, 2.042,
];
const Z_975 = 1.959964;

/** The t quantile for a 95% two-sided interval with `df` degrees of freedom (df ≥ 1). */
export function tQuantile975(df: number): number {
  const tabled = T_975[df - 1];
  if (tabled !== undefined) return tabled;
  // Beyond the table, the Cornish-Fisher expansion around the normal quantile (error < 1e-4).
  const z = Z_975;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df);
}

/** Mean and 95% interval of `samples` (empty: mean NaN). */
export function meanInterval(samples: readonly number[]): MeanInterval {
  const n = samples.length;
  if (n === 0) return { n, mean: Number.NaN, low: null, high: null };
  const mean = samples.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { n, mean, low: null, high: null };
  const variance = samples.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1);
  const half = tQuantile975(n - 1) * Math.sqrt(variance / n);
  return { n, mean, low: mean - half, high: mean + half };
}
