/**
 * A scenario run as one self-contained HTML file: no scripts, no network, inline CSS and SVG. A lane
 * per compute (states over time, operations as marks), CU over time, active computes and open
 * connections over time, operations per action, the metrics table, and the narrated timeline.
 */
import { formatDuration } from '../../core/duration.js';
import { formatInstant } from '../../core/instant.js';
import type { ScenarioRun } from '../../scenario/runScenario.js';
import type { TimelineEntry } from '../../scenario/timelineEntry.js';
import { relativeClock } from '../../projection/timelineLine.js';
import { escapeXml } from './escapeXml.js';
import { FigureProjection, type ReportFigures } from './figureProjection.js';
import {
  activityFigure,
  computesFigure,
  cuFigure,
  figureSection,
  metricsTable,
  operationsFigure,
} from './reportCharts.js';
import { REPORT_CSS } from './reportStyle.js';

/** Timeline lines a report lists before it says how many more there were. */
export const MAX_TIMELINE_LINES = 5_000;

/** How to draw a report. */
export interface HtmlReportOptions {
  /**
   * Say whether the run passed its expectations (default true); a run that had none to check (the
   * run so far of `serve`) leaves the verdict out.
   */
  readonly verdict?: boolean;
}

/** The run a report is of, without its simulation: its log is summed up in `ReportFigures`. */
export interface ReportedRun extends Omit<ScenarioRun, 'sim' | 'timeline'> {
  /** Events in the log. */
  readonly events: number;
  /** The first lines of the timeline (a report lists at most `MAX_TIMELINE_LINES`). */
  readonly timeline: readonly TimelineEntry[];
  /** Lines in the whole timeline. */
  readonly timelineLength: number;
}

/** The HTML report of a run. */
export function htmlReport(run: ScenarioRun, options: HtmlReportOptions = {}): string {
  const projection = new FigureProjection(run.start, Math.max(run.end, run.start + 1_000));
  for (const event of run.sim.log) projection.apply(event);
  const { sim, timeline, ...rest } = run;
  return renderHtmlReport(
    {
      ...rest,
      events: sim.log.length,
      timeline: timeline.slice(0, MAX_TIMELINE_LINES),
      timelineLength: timeline.length,
    },
    projection.figures(),
    options,
  );
}

/** The HTML report of `run` from the figures of its log. */
export function renderHtmlReport(
  run: ReportedRun,
  { fleet, buckets, lanes }: ReportFigures,
  options: HtmlReportOptions = {},
): string {
  const from = run.start;
  const until = Math.max(run.end, from + 1_000);
  const per = buckets.per;
  const verdict =
    options.verdict === false
      ? ''
      : run.failure === undefined
        ? `<p class="verdict pass">Passed: ${run.checks} expectation${run.checks === 1 ? '' : 's'} held.</p>`
        : `<p class="verdict fail">Failed at ${escapeXml(relativeClock(run.failure.at - from))} (${escapeXml(formatInstant(run.failure.at))}): ${escapeXml(run.failure.message)}</p>`;
  const charts = [
    figureSection(
      'Computes',
      'State of each compute over time; ticks above a lane are operations on it.',
      computesFigure(lanes, from, until),
    ),
    figureSection(
      'Compute units',
      `Total size of the active computes (CU): the mean and the peak of each ${per}.`,
      cuFigure(buckets, from, until),
    ),
    figureSection(
      'Activity',
      `The most active computes, open client connections and (with workloads) sessions in each ${per}.`,
      activityFigure(buckets, from, until),
    ),
    figureSection(
      'Operations',
      'Operations per action, by how they ended.',
      operationsFigure(fleet),
    ),
  ];
  const timeline = run.timeline
    .slice(0, MAX_TIMELINE_LINES)
    .map(
      (e) =>
        `<li class="tl-${e.kind}"><time datetime="${formatInstant(e.at)}">${escapeXml(relativeClock(e.at - from))}</time> ${escapeXml(e.text)}</li>`,
    )
    .join('');
  const more =
    run.timelineLength > MAX_TIMELINE_LINES
      ? `<p>… and ${run.timelineLength - MAX_TIMELINE_LINES} more lines (computesim run prints them all).</p>`
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
<p class="meta">Seed ${run.seed} · ${escapeXml(formatInstant(from))} → ${escapeXml(formatInstant(run.end))} (${escapeXml(formatDuration(run.end - from))} of virtual time, UTC) · ${run.events} events</p>
${verdict}
</header>
<main>
${charts.join('\n')}
<section><h2>Metrics</h2>${metricsTable(fleet)}</section>
<section><h2>Timeline</h2><details><summary>${run.timelineLength} lines: what the script did and what happened</summary><ol class="timeline">${timeline}</ol>${more}</details></section>
</main>
</body>
</html>
`;
}
