/**
 * Time series for charts, as pure projections of an event log: instant samples on a regular grid
 * (how many computes are active, their total CU, open workload sessions and client connections),
 * and buckets that summarise each interval (mean CU, peaks of the counts), so that short bursts in
 * a long run are not lost between samples.
 */
import { parseDuration, type Duration } from '../core/duration.js';
import type { SimEvent } from '../model/events.js';
import { FleetTracker } from './fleetTracker.js';

/** One sample: the values right after every event at or before `at`. */
export interface TimeSample {
  readonly at: number;
  readonly activeComputes: number;
  readonly totalCu: number;
  readonly sessions: number;
  /** Open client connections of any kind (plain clients and workload sessions). */
  readonly connections: number;
}

/** Settings of a time series. */
export interface TimeSeriesOptions {
  /** Spacing of the samples (for example `'5m'`); at least 1 ms. */
  readonly every: Duration;
  /** Last sample at or before this instant (default: the log's last instant). */
  readonly until?: number;
}

/** Samples `log` every `options.every` from its first event (its header) on. */
export function timeSeriesOf(log: Iterable<SimEvent>, options: TimeSeriesOptions): TimeSample[] {
  const every = stepOf(options.every, 'timeSeriesOf');
  const fleet = new FleetTracker();
  const samples: TimeSample[] = [];
  let next: number | undefined;
  let last = -Infinity;
  const sampleBefore = (t: number) => {
    if (next === undefined) return;
    for (; next < t && (options.until === undefined || next <= options.until); next += every)
      samples.push({
        at: next,
        activeComputes: fleet.activeComputes,
        totalCu: fleet.totalCu,
        sessions: fleet.sessions,
        connections: fleet.connections,
      });
  };
  for (const event of log) {
    next ??= event.at;
    sampleBefore(event.at);
    last = event.at;
    fleet.apply(event);
  }
  sampleBefore((options.until ?? last) + 1);
  return samples;
}

/** One interval `[at, at + every)`: the time-weighted mean CU and the peaks of the counts. */
export interface TimeBucket {
  readonly at: number;
  readonly meanCu: number;
  readonly peakCu: number;
  readonly peakActiveComputes: number;
  readonly peakSessions: number;
  readonly peakConnections: number;
}

/**
 * Summarises `log` in buckets of `options.every` from its first event up to `until` (or its end);
 * the last bucket may be shorter.
 */
export function timeBucketsOf(log: Iterable<SimEvent>, options: TimeSeriesOptions): TimeBucket[] {
  const projection = new BucketProjection(options.every);
  for (const event of log) projection.apply(event);
  return projection.buckets(options.until);
}

/**
 * The buckets as a streaming projection: fed the events of a log in order, a few at a time if need
 * be, then asked once for `buckets` (which closes the last one, so feed nothing after it).
 */
export class BucketProjection {
  readonly #every: number;
  readonly #fleet = new FleetTracker();
  readonly #buckets: TimeBucket[] = [];
  #start: number | undefined;
  #cuMs = 0;
  #peak = { cu: 0, active: 0, sessions: 0, connections: 0 };
  #clock = 0;
  #last = 0;

  /** Buckets of `every` (at least 1 ms). */
  constructor(every: Duration) {
    this.#every = stepOf(every, 'timeBucketsOf');
  }

  /** Takes the next event of the log. */
  apply(event: SimEvent): void {
    if (this.#start === undefined) {
      this.#start = this.#clock = event.at;
      this.#peak = this.#levels();
    }
    this.#accrue(event.at);
    this.#fleet.apply(event);
    this.#last = event.at;
    const now = this.#levels();
    const peak = this.#peak;
    this.#peak = {
      cu: Math.max(peak.cu, now.cu),
      active: Math.max(peak.active, now.active),
      sessions: Math.max(peak.sessions, now.sessions),
      connections: Math.max(peak.connections, now.connections),
    };
  }

  /**
   * The buckets of the events fed, up to `until` (default: just past the last event). It closes
   * the last bucket: call it once, when every event is fed.
   */
  buckets(until?: number): TimeBucket[] {
    this.#accrue(until ?? this.#last + 1);
    const start = this.#start;
    if (start !== undefined && this.#clock > start)
      this.#buckets.push(this.#bucket(start, this.#cuMs / (this.#clock - start)));
    return this.#buckets;
  }

  #levels() {
    const fleet = this.#fleet;
    return {
      cu: fleet.totalCu,
      active: fleet.activeComputes,
      sessions: fleet.sessions,
      connections: fleet.connections,
    };
  }

  #bucket(at: number, meanCu: number): TimeBucket {
    const peak = this.#peak;
    return {
      at,
      meanCu,
      peakCu: peak.cu,
      peakActiveComputes: peak.active,
      peakSessions: peak.sessions,
      peakConnections: peak.connections,
    };
  }

  /** Accrues the current levels up to `t`, closing every bucket that ends on the way. */
  #accrue(t: number): void {
    if (this.#start === undefined) return;
    const every = this.#every;
    while (t >= this.#start + every) {
      this.#cuMs += this.#fleet.totalCu * (this.#start + every - this.#clock);
      this.#buckets.push(this.#bucket(this.#start, this.#cuMs / every));
      this.#clock = this.#start += every;
      this.#cuMs = 0;
      this.#peak = this.#levels();
    }
    this.#cuMs += this.#fleet.totalCu * (t - this.#clock);
    this.#clock = t;
  }
}

function stepOf(every: Duration, name: string): number {
  const ms = parseDuration(every);
  if (ms < 1) throw new RangeError(`${name}: every must be at least 1 ms`);
  return ms;
}
