/**
 * Time series for charts, as a pure projection of an event log: at each instant of a regular grid,
 * how many computes are active, their total size in CU, and how many workload sessions and client
 * connections (sessions included) are open.
 */
import { parseDuration, type Duration } from '../core/duration.js';
import type { SimEvent } from '../model/events.js';

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
  const every = parseDuration(options.every);
  if (every < 1) throw new RangeError('timeSeriesOf: every must be at least 1 ms');
  const minCu = new Map<string, number>();
  const owner = new Map<string, string>();
  const activeCu = new Map<string, number>();
  /** Workload sessions waiting for their compute, and connected. */
  const waiting = new Set<string>();
  const open = new Set<string>();
  const connected = new Set<string>();
  const samples: TimeSample[] = [];
  let next: number | undefined;
  let last = -Infinity;
  const sampleBefore = (t: number) => {
    if (next === undefined) return;
    for (; next < t && (options.until === undefined || next <= options.until); next += every) {
      let totalCu = 0;
      for (const cu of activeCu.values()) totalCu += cu;
      samples.push({
        at: next,
        activeComputes: activeCu.size,
        totalCu,
        sessions: open.size,
        connections: connected.size,
      });
    }
  };
  const end = (connectionId: string) => {
    waiting.delete(connectionId);
    open.delete(connectionId);
    connected.delete(connectionId);
  };
  for (const event of log) {
    next ??= event.at;
    sampleBefore(event.at);
    last = event.at;
    switch (event.type) {
      case 'EndpointCreated':
        minCu.set(event.endpointId, event.minCu);
        owner.set(event.endpointId, event.projectId);
        break;
      case 'EndpointUpdated':
        if (event.changes.minCu !== undefined) minCu.set(event.endpointId, event.changes.minCu);
        break;
      case 'EndpointDeleted':
        activeCu.delete(event.endpointId);
        break;
      case 'ProjectDeleted':
        for (const [endpointId, projectId] of owner)
          if (projectId === event.projectId) activeCu.delete(endpointId);
        break;
      case 'ComputeStateChanged':
        if (event.currentState !== 'active') activeCu.delete(event.endpointId);
        else if (!activeCu.has(event.endpointId))
          activeCu.set(event.endpointId, minCu.get(event.endpointId) ?? 0);
        break;
      case 'ComputeResized':
        if (activeCu.has(event.endpointId)) activeCu.set(event.endpointId, event.toCu);
        break;
      case 'ConnectionRequested':
        if (event.holdMs !== undefined) waiting.add(event.connectionId);
        break;
      case 'ConnectionOpened':
        connected.add(event.connectionId);
        if (waiting.delete(event.connectionId) || event.holdMs !== undefined)
          open.add(event.connectionId);
        break;
      case 'ConnectionClosed':
      case 'ConnectionRefused':
        end(event.connectionId);
        break;
      case 'ConnectionsDropped':
        for (const id of event.connectionIds) end(id);
        break;
      default:
        break;
    }
  }
  sampleBefore((options.until ?? last) + 1);
  return samples;
}
