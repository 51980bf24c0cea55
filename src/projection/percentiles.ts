/**
 * Percentile summaries of samples (latencies), by the nearest-rank method.
 */

/** Count, p50, p95, p99 and max of a set of samples (all 0 when there are none). */
export interface Percentiles {
  readonly count: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

/** Summarises `samples` (not modified). */
export function percentiles(samples: readonly number[]): Percentiles {
  if (samples.length === 0) return { count: 0, p50: 0, p95: 0, p99: 0, max: 0 };
  const sorted = Float64Array.from(samples).sort();
  const rank = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] as number;
  return {
    count: sorted.length,
    p50: rank(0.5),
    p95: rank(0.95),
    p99: rank(0.99),
    max: sorted[sorted.length - 1] as number,
  };
}
