/**
 * The metrics of a run in a few plain lines, for the end of `computesim run`: what it cost, how
 * often computes started, what clients felt, and how operations ended.
 */
import { formatDuration } from '../core/duration.js';
import { formatInstant } from '../core/instant.js';
import type { FleetMetrics } from '../projection/metrics.js';
import type { Percentiles } from '../projection/percentiles.js';

/** Summary lines of fleet metrics. */
export function metricsSummary(fleet: FleetMetrics): string[] {
  const total = (table: Readonly<Record<string, number>>) =>
    Object.values(table).reduce((a, b) => a + b, 0);
  const operations = Object.entries(fleet.operations)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([action, byStatus]) =>
        `${action} ${Object.entries(byStatus)
          .map(([status, n]) => `${n} ${status}`)
          .join('/')}`,
    );
  return [
    `summary, ${formatInstant(fleet.from)} → ${formatInstant(fleet.until)} (${formatDuration(fleet.until - fleet.from)} of virtual time):`,
    `  ${fleet.computes} compute${fleet.computes === 1 ? '' : 's'} · ${fleet.cuHours.toFixed(3)} CU-hours · ${fleet.activeHours.toFixed(2)} active hours · est. cost $${fleet.costEstimate.toFixed(2)} at $${fleet.pricePerCuHour}/CU-hour`,
    `  starts ${fleet.starts} · suspends ${fleet.suspends} · autoscaling moves ${fleet.resizes}`,
    `  sessions ${fleet.sessions} · cold starts felt ${fleet.coldStarts}${waits(fleet.coldStartWaitMs)}`,
    `  connections refused ${total(fleet.refused)} · dropped ${total(fleet.dropped)} · statements failed ${total(fleet.failedStatements)} · requests refused 423: ${fleet.lockedRequests}`,
    `  operations: ${operations.length === 0 ? 'none' : operations.join(' · ')}${fleet.operationRetries > 0 ? ` (${fleet.operationRetries} retried attempts)` : ''}`,
  ];
}

function waits(p: Percentiles): string {
  return p.count === 0 ? '' : ` (wait p50 ${p.p50} ms, p95 ${p.p95} ms, p99 ${p.p99} ms)`;
}
