/**
 * A scenario run as one self-contained HTML file: no scripts, no network, inline CSS and SVG. A lane
 * per compute (states over time, operations as marks), CU over time, active computes and open
 * connections over time, operations per action, the metrics table, and the narrated timeline.
 */
import { formatDuration } from '../../core/duration.js';
import { formatInstant } from '../../core/instant.js';
import type { ScenarioRun } from '../../scenario/runScenario.js';
import { FIGURES, figureOf, formatFigure } from '../../study/figures.js';
import { computeLanes } from '../../projection/computeLanes.js';
import { metricsOf } from '../../projection/metrics.js';
import { timeBucketsOf } from '../../projection/timeSeries.js';
import { relativeClock } from '../../projection/timelineLine.js';
import { barChart, type Bar } from './barChart.js';
import { escapeXml } from './escapeXml.js';
import { laneChart } from './laneChart.js';
import { lineChart } from './lineChart.js';
import { REPORT_CSS } from './reportStyle.js';

/** Timeline lines a report lists before it says how many more there were. */
const MAX_TIMELINE_LINES = 5_000;
/** Samples per time chart (the grid step follows the run's length). */
const SAMPLES = 600;

const OUTCOMES = [
  ['finished', 'op-finished'],
  ['error', 'op-error'],
  ['cancelled', 'op-cancelled'],
  ['unfinished', 'op-unfinished'],
] as const;

/** The HTML report of a run. */
export function htmlReport(run: ScenarioRun): string {
  const log = [...run.sim.log];
  const from = run.start;
  const until = Math.max(run.end, from + 1_000);
  const fleet = metricsOf(log).fleet;
  const step = Math.max(1_000, Math.ceil((until - from) / SAMPLES / 1_000) * 1_000);
  const buckets = timeBucketsOf(log, { every: step, until });
  const per = formatDuration(step);
  const lanes = computeLanes(log, until);
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
  const verdict =
    run.failure === undefined
      ? `<p class="verdict pass">Passed: ${run.checks} expectation${run.checks === 1 ? '' : 's'} held.</p>`
      : `<p class="verdict fail">Failed at ${escapeXml(relativeClock(run.failure.at - from))} (${escapeXml(formatInstant(run.failure.at))}): ${escapeXml(run.failure.message)}</p>`;
  const charts = [
    section(
      'Computes',
      'State of each compute over time; ticks above a lane are operations on it.',
      lanes.length === 0 ? '<p>No computes.</p>' : laneChart(lanes, from, until) + LANE_LEGEND,
    ),
    section(
      'Compute units',
      `Total size of the active computes (CU): the mean and the peak of each ${per}.`,
      lineChart(
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
        from,
        until,
      ),
    ),
    section(
      'Activity',
      `The most active computes, open client connections and (with workloads) sessions in each ${per}.`,
      lineChart(
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
          ...(fleet.sessions === 0
            ? []
            : [
                {
                  name: 'workload sessions',
                  className: 's-sessions',
                  points: buckets.map((b) => [b.at, b.peakSessions] as const),
                },
              ]),
        ],
        from,
        until,
        { wholeNumbers: true },
      ),
    ),
    section(
      'Operations',
      'Operations per action, by how they ended.',
      bars.length === 0
        ? '<p>No operations.</p>'
        : barChart('Operations per action', 'operations', bars),
    ),
  ];
  // Scenarios are small: fractional figures get three places.
  const rows = FIGURES.map(
    (f) =>
      `<tr><th scope="row">${escapeXml(f.label)}</th><td>${escapeXml(formatFigure(figureOf(f, fleet), f.digits === 0 ? 0 : 3))}</td></tr>`,
  ).join('');
  const timeline = run.timeline
    .slice(0, MAX_TIMELINE_LINES)
    .map(
      (e) =>
        `<li class="tl-${e.kind}"><time datetime="${formatInstant(e.at)}">${escapeXml(relativeClock(e.at - from))}</time> ${escapeXml(e.text)}</li>`,
    )
    .join('');
  const more =
    run.timeline.length > MAX_TIMELINE_LINES
      ? `<p>… and ${run.timeline.length - MAX_TIMELINE_LINES} more lines (computesim run prints them all).</p>`
      : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeXml(`computesim: ${run.name}`)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header>
<h1>${escapeXml(run.name)}</h1>
${run.description === undefined ? '' : `<p class="about">${escapeXml(run.description)}</p>`}
<p class="meta">Seed ${run.seed} · ${escapeXml(formatInstant(from))} → ${escapeXml(formatInstant(run.end))} (${escapeXml(formatDuration(run.end - from))} of virtual time, UTC) · ${run.sim.log.length} events</p>
${verdict}
</header>
<main>
${charts.join('\n')}
<section><h2>Metrics</h2><table class="metrics"><tbody>${rows}</tbody></table></section>
<section><h2>Timeline</h2><details><summary>${run.timeline.length} lines: what the script did and what happened</summary><ol class="timeline">${timeline}</ol>${more}</details></section>
</main>
</body>
</html>
`;
}

function section(title: string, caption: string, body: string): string {
  return `<section><h2>${escapeXml(title)}</h2><p class="caption">${escapeXml(caption)}</p><figure>${body}</figure></section>`;
}

const LANE_LEGEND = `<p class="legend-row"><span class="key st-init"></span>init <span class="key st-active"></span>active <span class="key st-idle"></span>idle · operations: <span class="key op-finished"></span>finished <span class="key op-error"></span>error <span class="key op-cancelled"></span>cancelled <span class="key op-unfinished"></span>unfinished</p>`;
