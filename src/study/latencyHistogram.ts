/**
 * A mergeable histogram of latencies (whole milliseconds), on hdr-histogram-js: shards record their
 * samples, histograms add up exactly, and percentiles read from the sum are within a stated relative
 * error of the exact ones. Crosses threads and files as compressed base64 text.
 */
import {
  build,
  decodeFromCompressedBase64,
  encodeIntoCompressedBase64,
  type Histogram,
} from 'hdr-histogram-js';
import type { Percentiles } from '../projection/percentiles.js';

/**
 * How far a percentile read from a histogram may lie from the exact nearest-rank one: at most this
 * fraction of it, and never below it (3 significant digits: buckets at most 1/1024 of their value
 * wide, and a percentile reads the top of its bucket).
 */
export const PERCENTILE_RELATIVE_ERROR = 1 / 1024;

/** A latency histogram. */
export class LatencyHistogram {
  readonly #histogram: Histogram;

  private constructor(histogram: Histogram) {
    this.#histogram = histogram;
  }

  /** An empty histogram. */
  static empty(): LatencyHistogram {
    return new LatencyHistogram(build({ numberOfSignificantValueDigits: 3, bitBucketSize: 64 }));
  }

  /** A histogram from its `encode()` text. */
  static decode(text: string): LatencyHistogram {
    const histogram = LatencyHistogram.empty();
    if (text !== '') histogram.#histogram.add(decodeFromCompressedBase64(text, 64));
    return histogram;
  }

  /** Records one sample (whole ms ≥ 0). */
  record(ms: number): void {
    this.#histogram.recordValue(ms);
  }

  /** Adds every sample of `other` (exact: counts per bucket add up). */
  merge(other: LatencyHistogram): this {
    this.#histogram.add(other.#histogram);
    return this;
  }

  /** Compressed base64 text (`''` when empty). */
  encode(): string {
    return this.#histogram.totalCount === 0 ? '' : encodeIntoCompressedBase64(this.#histogram);
  }

  /** Count, p50, p95, p99 and max (all 0 when empty), within `PERCENTILE_RELATIVE_ERROR`. */
  percentiles(): Percentiles {
    const h = this.#histogram;
    if (h.totalCount === 0) return { count: 0, p50: 0, p95: 0, p99: 0, max: 0 };
    return {
      count: h.totalCount,
      p50: h.getValueAtPercentile(50),
      p95: h.getValueAtPercentile(95),
      p99: h.getValueAtPercentile(99),
      max: h.maxValue,
    };
  }
}
