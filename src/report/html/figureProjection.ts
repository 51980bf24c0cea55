/**
 * The figures of a report (metrics, compute lanes, time buckets) as one streaming projection: fed
 * the events of a log in order, an event at a time, then asked once for `figures`. The HTML report,
 * the report of `serve`'s run so far and the dashboard's view all draw from it.
 */
import { formatDuration } from '../../core/duration.js';
import type { SimEvent } from '../../model/events.js';
import { LaneProjection } from '../../projection/computeLanes.js';
import { MetricsProjection } from '../../projection/metrics.js';
import { BucketProjection } from '../../projection/timeSeries.js';
import type { ComputeLane } from '../../projection/computeLanes.js';
import type { FleetMetrics } from '../../projection/metrics.js';
import { chartStep, type ChartBuckets } from './reportCharts.js';

/** What a report draws from the log. */
export interface ReportFigures {
  readonly fleet: FleetMetrics;
  readonly buckets: ChartBuckets;
  readonly lanes: readonly ComputeLane[];
}

/** Projects the figures of `[from, until]`: `apply` every event, then `figures` once. */
export class FigureProjection {
  readonly #metrics = new MetricsProjection();
  readonly #lanes = new LaneProjection();
  readonly #buckets: BucketProjection;
  readonly #step: number;

  constructor(
    readonly from: number,
    readonly until: number,
  ) {
    this.#step = chartStep(from, until);
    this.#buckets = new BucketProjection(this.#step);
  }

  /** Takes the next event of the log. */
  apply(event: SimEvent): void {
    this.#metrics.apply(event);
    this.#lanes.apply(event);
    this.#buckets.apply(event);
  }

  /** The figures of the events fed (closes the open spans and buckets: feed nothing after it). */
  figures(): ReportFigures {
    return {
      fleet: this.#metrics.metrics().fleet,
      buckets: {
        buckets: this.#buckets.buckets(this.until),
        per: formatDuration(this.#step),
      },
      lanes: this.#lanes.lanes(this.until),
    };
  }
}
