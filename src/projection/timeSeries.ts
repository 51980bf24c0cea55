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
  const every = stepOf(options.every, 'timeBucketsOf');
  const fleet = new FleetTracker();
  const buckets: TimeBucket[] = [];
  let start: number | undefined;
  let cuMs = 0;
  let peak = { cu: 0, active: 0, sessions: 0, connections: 0 };
  let clock = 0;
  const levels = () => ({
    cu: fleet.totalCu,
    active: fleet.activeComputes,
    sessions: fleet.sessions,
    connections: fleet.connections,
  });
  /** Accrues the current levels up to `t`, closing every bucket that ends on the way. */
  const accrue = (t: number) => {
    if (start === undefined) return;
    while (t >= start + every) {
      cuMs += fleet.totalCu * (start + every - clock);
      buckets.push({
        at: start,
        meanCu: cuMs / every,
        peakCu: peak.cu,
        peakActiveComputes: peak.active,
        peakSessions: peak.sessions,
        peakConnections: peak.connections,
      });
      clock = start += every;
      cuMs = 0;
      peak = levels();
    }
    cuMs += fleet.totalCu * (t - clock);
    clock = t;
  };
  let last = 0;
  for (const event of log) {
    if (start === undefined) {
      start = clock = event.at;
      peak = levels();
    }
    accrue(event.at);
    fleet.apply(event);
    last = event.at;
    const now = levels();
    peak = {
      cu: Math.max(peak.cu, now.cu),
      active: Math.max(peak.active, now.active),
      sessions: Math.max(peak.sessions, now.sessions),
      connections: Math.max(peak.connections, now.connections),
    };
  }
  const end = options.until ?? last + 1;
  accrue(end);
  if (start !== undefined && clock > start)
    buckets.push({
      at: start,
      meanCu: cuMs / (clock - start),
      peakCu: peak.cu,
      peakActiveComputes: peak.active,
      peakSessions: peak.sessions,
      peakConnections: peak.connections,
    });
  return buckets;
}

function stepOf(every: Duration, name: string): number {
  const ms = parseDuration(every);
  if (ms < 1) throw new RangeError(`${name}: every must be at least 1 ms`);
  return ms;
}
