/**
 * The HTML report of a fork: both futures of one run on the same time axes, the shared past drawn
 * once and each compute's two futures as paired lanes and series from the fork point, with the
 * figures of both futures side by side. Self-contained like the run report: no scripts, no network.
 */
import { formatDuration } from '../../core/duration.js';
import { formatInstant } from '../../core/instant.js';
import { computeLanes, type ComputeLane } from '../../projection/computeLanes.js';
import { timeBucketsOf, type TimeBucket } from '../../projection/timeSeries.js';
import type { SimEvent } from '../../model/events.js';
import { differenceSign, FIGURES, figureOf, formatFigure } from '../../study/figures.js';
import type { ForkComparison } from '../../study/forkComparison.js';
import { escapeXml } from './escapeXml.js';
import { laneChart } from './laneChart.js';
import { pairedLanes } from './pairedLanes.js';
import { timeAxis } from './timeAxis.js';
import { lineChart, type Series } from './lineChart.js';
import { REPORT_CSS } from './reportStyle.js';

/** Samples per time chart. */
const SAMPLES = 600;

/** What a fork report is titled with. */
export interface ForkReportOptions {
  /** Where the run came from (a log file's name). */
  readonly source: string;
  /** What the fork changed, in words (`suspendTimeout=60`). */
  readonly change: string;
}

/** The HTML report of `result`. */
export function forkReport(result: ForkComparison, options: ForkReportOptions): string {
  const asRunLog = [...result.original.log] as SimEvent[];
  const forkLog = [...result.fork.log] as SimEvent[];
  const from = asRunLog[0]?.at ?? result.at;
  const { at, until } = result;
  const step = Math.max(1_000, Math.ceil((until - from) / SAMPLES / 1_000) * 1_000);
  const per = formatDuration(step);
  const [asRun, fork] = result.comparison.rows;
  const asRunName = asRun?.name ?? 'as run';
  const forkName = fork?.name ?? 'fork';
  const asRunBuckets = timeBucketsOf(asRunLog, { every: step, until });
  // The fork's past is the run's: only its buckets from the fork point on are drawn.
  const forkBuckets = timeBucketsOf(forkLog, { every: step, until }).filter(
    (b) => b.at + step > at,
  );
  const lanes = pairedLanes([
    { name: 'as run', className: 'as-run', lanes: computeLanes(asRunLog, until) },
    {
      name: 'fork',
      className: 'fork',
      lanes: computeLanes(forkLog, until).map((lane) => fromInstant(lane, at)),
    },
  ]);
  const series = (
    name: string,
    className: string,
    buckets: readonly TimeBucket[],
    pick: (b: TimeBucket) => number,
  ): Series => ({ name, className, points: buckets.map((b) => [b.at, pick(b)] as const) });
  const charts = [
    section(
      'Computes',
      `Each compute's lane as run, then (↳ fork) its lane in the fork from the fork point on (dashed line: ${formatInstant(at)}).`,
      lanes.lanes.length === 0
        ? '<p>No computes.</p>'
        : laneChart(lanes.lanes, from, until, {
            labels: lanes.labels,
            classes: lanes.classes,
            markAt: at,
          }),
    ),
    section(
      'Compute units',
      `Total size of the active computes (CU), the mean of each ${per}: as run, and in the fork.`,
      lineChart(
        'Total CU over time, both futures',
        'CU',
        [
          series(`${asRunName}: mean CU`, 's-cu', asRunBuckets, (b) => b.meanCu),
          series(`${forkName}: mean CU`, 's-fork', forkBuckets, (b) => b.meanCu),
        ],
        timeAxis(from, until),
        { markAt: at },
      ),
    ),
    section(
      'Activity',
      `The most active computes in each ${per}: as run, and in the fork.`,
      lineChart(
        'Active computes over time, both futures',
        'computes',
        [
          series(
            `${asRunName}: active computes`,
            's-active',
            asRunBuckets,
            (b) => b.peakActiveComputes,
          ),
          series(
            `${forkName}: active computes`,
            's-fork-active',
            forkBuckets,
            (b) => b.peakActiveComputes,
          ),
        ],
        timeAxis(from, until),
        { wholeNumbers: true, markAt: at },
      ),
    ),
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeXml(`computesim: fork of ${options.source}`)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header>
<h1>${escapeXml(`Fork of ${options.source}`)}</h1>
<p class="about">${escapeXml(`At ${formatInstant(at)}: ${options.change}`)}</p>
<p class="meta">Seed ${result.original.seed} · ${escapeXml(formatInstant(from))} → ${escapeXml(formatInstant(until))} · the futures from ${escapeXml(formatInstant(at))} (${escapeXml(formatDuration(until - at))} of virtual time, UTC)</p>
</header>
<main>
${charts.join('\n')}
<section><h2>Metrics</h2><p class="caption">${escapeXml(`Both futures, from the fork point to ${formatInstant(until)}; the shared past is not counted.`)}</p>${metricsTable(result)}</section>
</main>
</body>
</html>
`;
}

/** A lane from `at` on: its spans cut there, its earlier operations left out. */
function fromInstant(lane: ComputeLane, at: number): ComputeLane {
  return {
    ...lane,
    spans: lane.spans
      .filter((span) => span.to > at)
      .map((span) => (span.from < at ? { ...span, from: at } : span)),
    operations: lane.operations.filter((op) => op.at >= at),
  };
}

/** The figures of both futures, the fork's with its difference. */
function metricsTable(result: ForkComparison): string {
  const [asRun, fork] = result.comparison.rows;
  if (asRun === undefined || fork === undefined) return '';
  const head = `<tr><th scope="col"></th><th scope="col">${escapeXml(asRun.name)}</th><th scope="col">${escapeXml(fork.name)}</th><th scope="col">Δ</th></tr>`;
  const rows = FIGURES.map((figure) => {
    const digits = figure.digits === 0 ? 0 : 3;
    const base = figureOf(figure, asRun.fleet);
    const value = figureOf(figure, fork.fleet);
    const delta =
      base === undefined || value === undefined
        ? '–'
        : `${differenceSign(value - base, digits)}${formatFigure(Math.abs(value - base), digits)}`;
    return `<tr><th scope="row">${escapeXml(figure.label)}</th><td>${escapeXml(formatFigure(base, digits))}</td><td>${escapeXml(formatFigure(value, digits))}</td><td class="delta">${escapeXml(delta)}</td></tr>`;
  }).join('');
  return `<table class="metrics fork-metrics"><thead>${head}</thead><tbody>${rows}</tbody></table>`;
}

function section(title: string, caption: string, body: string): string {
  return `<section><h2>${escapeXml(title)}</h2><p class="caption">${escapeXml(caption)}</p><figure>${body}</figure></section>`;
}
