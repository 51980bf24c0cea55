/**
 * A scenario run as terminal text: a header, the timeline, the verdict, and the metrics summary.
 */
import { formatInstant } from '../core/instant.js';
import type { RunInfo, ScenarioRun } from '../scenario/runScenario.js';
import type { TimelineEntry } from '../scenario/timelineEntry.js';
import { metricsOf } from '../projection/metrics.js';
import { metricsSummary } from './metricsSummary.js';
import { timelineText } from './timelineText.js';
import { relativeClock } from '../projection/timelineLine.js';

/** The header lines of a run (before its timeline). */
export function runHeader(run: RunInfo): string {
  const about = run.description === undefined ? '' : `: ${run.description}`;
  return `computesim run ${run.name}${about}\nseed ${run.seed}, virtual start ${formatInstant(run.start)}`;
}

/** The lines after the timeline: whether the expectations held, then the metrics. */
export function runFooter(run: ScenarioRun): string[] {
  const verdict =
    run.failure === undefined
      ? `passed: ${run.checks} expectation${run.checks === 1 ? '' : 's'} held, ${run.sim.log.length} events logged`
      : `FAILED at ${relativeClock(run.failure.at - run.start)} (${formatInstant(run.failure.at)}): ${run.failure.message}`;
  return ['', verdict, '', ...metricsSummary(metricsOf(run.sim.log).fleet)];
}

/** The whole run as lines (header, timeline, footer). */
export function runText(run: ScenarioRun, color = false): string[] {
  return [
    ...runHeader(run).split('\n'),
    ...run.timeline.map((entry: TimelineEntry) => timelineText(entry, run.start, color)),
    ...runFooter(run),
  ];
}
