/**
 * The figures of a run as the HTML report draws them, one function each: compute lanes, total CU,
 * activity, operations per action and the metrics table. The report and the live dashboard of
 * `serve` both draw with these, so a run looks the same in either.
 */
import { formatDuration } from '../../core/duration.js';
import type { SimEvent } from '../../model/events.js';
import type { ComputeLane } from '../../projection/computeLanes.js';
import type { FleetMetrics } from '../../projection/metrics.js';
import { timeBucketsOf, type TimeBucket } from '../../projection/timeSeries.js';
import { FIGURES, figureOf, formatFigure } from '../../study/figures.js';
import { barChart, type Bar } from './barChart.js';
import { escapeXml } from './escapeXml.js';
import { laneChart, type LaneChartOptions } from './laneChart.js';
import { timeAxis } from './timeAxis.js';
import { lineChart } from './lineChart.js';

/** Samples per time chart (the grid step follows the run's length). */
const SAMPLES = 600;

const OUTCOMES = [
  ['finished', 'op-finished'],
  ['error', 'op-error'],
  ['cancelled', 'op-cancelled'],
  ['unfinished', 'op-unfinished'],
] as const;

/** The time buckets of `[from, until]` a run's time charts draw, and how long each one is. */
export interface ChartBuckets {
  readonly buckets: readonly TimeBucket[];
  /** `5s`, `1m`: the length of one bucket, as the captions say it. */
  readonly per: string;
}

/** Buckets of `log` up to `until`, about 600 of them, each a whole number of seconds. */
export function chartBuckets(log: Iterable<SimEvent>, from: number, until: number): ChartBuckets {
  const step = chartStep(from, until);
  return { buckets: timeBucketsOf(log, { every: step, until }), per: formatDuration(step) };
}

/** The length of one bucket of the time charts of `[from, until]`, ms: a whole number of seconds. */
export function chartStep(from: number, until: number): number {
  return Math.max(1_000, Math.ceil((until - from) / SAMPLES / 1_000) * 1_000);
}

/** The lanes of `lanes` with the legend under them (or a line saying there are none). */
export function computesFigure(
  lanes: readonly ComputeLane[],
  from: number,
  until: number,
  options?: LaneChartOptions,
): string {
  return lanes.length === 0
    ? '<p>No computes.</p>'
    : laneChart(lanes, from, until, options) + LANE_LEGEND;
}

/** Total CU over time: the mean and the peak of each bucket. */
export function cuFigure({ buckets, per }: ChartBuckets, from: number, until: number): string {
  return lineChart(
    'Total CU over time',
    'CU',
    [
      {
        name: `mean CU per ${per}`,
        className: 's-cu',
        points: buckets.map((b) => [b.at, b.meanCu] as const),
      },
      {
        name: 'peak CU',
        className: 's-peak',
        points: buckets.map((b) => [b.at, b.peakCu] as const),
      },
    ],
    timeAxis(from, until),
  );
}

/** The most active computes and open connections (and workload sessions, if any) per bucket. */
export function activityFigure({ buckets }: ChartBuckets, from: number, until: number): string {
  const withSessions = buckets.some((b) => b.peakSessions > 0);
  return lineChart(
    'Active computes and connections over time',
    'count',
    [
      {
        name: 'active computes',
        className: 's-active',
        points: buckets.map((b) => [b.at, b.peakActiveComputes] as const),
      },
      {
        name: 'open connections',
        className: 's-connections',
        points: buckets.map((b) => [b.at, b.peakConnections] as const),
      },
      ...(withSessions
        ? [
            {
              name: 'workload sessions',
              className: 's-sessions',
              points: buckets.map((b) => [b.at, b.peakSessions] as const),
            },
          ]
        : []),
    ],
    timeAxis(from, until),
    { wholeNumbers: true },
  );
}

/** Operations per action, by how they ended (or a line saying there were none). */
export function operationsFigure(fleet: FleetMetrics): string {
  const bars: Bar[] = Object.entries(fleet.operations)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([action, byStatus]) => ({
      label: action,
      segments: OUTCOMES.map(([status, className]) => ({
        name: status,
        className,
        value: byStatus[status] ?? 0,
      })),
    }));
  return bars.length === 0
    ? '<p>No operations.</p>'
    : barChart('Operations per action', 'operations', bars);
}

/** The metrics table: every figure of `fleet`, fractional ones to three places. */
export function metricsTable(fleet: FleetMetrics): string {
  const rows = FIGURES.map(
    (f) =>
      `<tr><th scope="row">${escapeXml(f.label)}</th><td>${escapeXml(formatFigure(figureOf(f, fleet), f.digits === 0 ? 0 : 3))}</td></tr>`,
  ).join('');
  return `<table class="metrics"><tbody>${rows}</tbody></table>`;
}

/** A titled section around a figure, with its caption. */
export function figureSection(title: string, caption: string, body: string): string {
  return `<section><h2>${escapeXml(title)}</h2><p class="caption">${escapeXml(caption)}</p><figure>${body}</figure></section>`;
}

/** What the colours of the lane chart mean. */
export const LANE_LEGEND = `<p class="legend-row"><span class="key st-init"></span>init <span class="key st-active"></span>active <span class="key st-idle"></span>idle · operations: <span class="key op-finished"></span>finished <span class="key op-error"></span>error <span class="key op-cancelled"></span>cancelled <span class="key op-unfinished"></span>unfinished</p>`;
