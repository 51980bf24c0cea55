/**
 * The HTML report of `compare`: the paired figures of every configuration against the baseline
 * (with their 95% intervals when several seeds ran), and one seed's run of every configuration on
 * the same time axes, as the fork report draws two futures: each compute's lanes paired (the
 * baseline, then ↳ each other configuration), total CU and active computes of each over time.
 */
import { formatDuration, parseDuration, type Duration } from '../../core/duration.js';
import { formatInstant } from '../../core/instant.js';
import type { SimEvent } from '../../model/events.js';
import { computeLanes, type ComputeLane } from '../../projection/computeLanes.js';
import type { TimeBucket } from '../../projection/timeSeries.js';
import type { PairedComparison } from '../../study/pairedComparison.js';
import { escapeXml } from './escapeXml.js';
import { laneChart } from './laneChart.js';
import { lineChart, type Series } from './lineChart.js';
import { pairedFiguresTable } from './pairedFigures.js';
import { pairedLanes, wholeGroups } from './pairedLanes.js';
import { chartBuckets, figureSection, LANE_LEGEND, type ChartBuckets } from './reportCharts.js';
import { reportPage } from './reportPage.js';
import { timeAxis } from './timeAxis.js';

/** Lanes a compare report draws at most (whole computes: every configuration's lane of each). */
const MAX_LANES = 40;
/** Configurations told apart by colour; more take the colours again. */
const ARM_COLOURS = 6;

/** One configuration's run as the report draws it: its compute lanes and time buckets. */
export interface CompareArm {
  readonly name: string;
  readonly lanes: readonly ComputeLane[];
  readonly buckets: ChartBuckets;
}

/**
 * What the report draws of one configuration's run: its lanes and buckets over `[from, until]`
 * (read from `log`, which is iterated twice). Made one configuration at a time, so only one run's
 * log need be in memory.
 */
export function compareArm(
  name: string,
  log: Iterable<SimEvent>,
  from: number,
  until: number,
): CompareArm {
  return { name, lanes: computeLanes(log, until), buckets: chartBuckets(log, from, until) };
}

/** What a compare report shows. */
export interface CompareReportInput {
  readonly study: string;
  readonly description?: string | undefined;
  /** The span of every run. */
  readonly duration: Duration;
  /** The figures of every configuration over every seed. */
  readonly paired: PairedComparison;
  /** The drawn runs, of the first seed, in configuration order (the first is the baseline). */
  readonly arms: readonly CompareArm[];
  /** Where the drawn runs start and end, epoch ms. */
  readonly from: number;
  readonly until: number;
}

/** The HTML report of a comparison. */
export function compareReport(input: CompareReportInput): string {
  const { paired, arms, from, until } = input;
  const seeds = paired.seeds;
  const drawn = seeds[0];
  const baseline = paired.arms[0]?.name ?? '';
  const lanes = pairedLanes(
    arms.map((arm, i) => ({ name: arm.name, className: armClass('arm', i), lanes: arm.lanes })),
  );
  const shown = wholeGroups(lanes.groups, MAX_LANES);
  const more = lanes.groups.length - shown.computes;
  const per = arms[0]?.buckets.per ?? '';
  const series = (pick: (b: TimeBucket) => number, what: string): Series[] =>
    arms.map((arm, i) => ({
      name: `${arm.name}: ${what}`,
      className: armClass('s-arm', i),
      points: arm.buckets.buckets.map((b) => [b.at, pick(b)] as const),
    }));
  const sections = [
    `<section><h2>Figures</h2><p class="caption">${figuresCaption(seeds, baseline)}</p>${pairedFiguresTable(paired)}</section>`,
    figureSection(
      'Computes',
      `Seed ${drawn}: each compute's lane under ${baseline}, then (↳) under each other configuration.`,
      lanes.lanes.length === 0
        ? '<p>No computes.</p>'
        : laneChart(lanes.lanes, from, until, {
            labels: lanes.labels,
            classes: lanes.classes,
            max: shown.lanes,
            ...(more > 0
              ? {
                  note: `… and ${more} more compute${more === 1 ? '' : 's'} (the figures count them all)`,
                }
              : {}),
          }) + LANE_LEGEND,
    ),
    figureSection(
      'Compute units',
      `Seed ${drawn}: total size of the active computes (CU), the mean of each ${per}, under each configuration.${checksNote(arms)}`,
      lineChart(
        'Total CU over time, every configuration',
        'CU',
        series((b) => b.meanCu, 'mean CU'),
        timeAxis(from, until),
      ),
    ),
    figureSection(
      'Activity',
      `Seed ${drawn}: the most active computes in each ${per}, under each configuration.`,
      lineChart(
        'Active computes over time, every configuration',
        'computes',
        series((b) => b.peakActiveComputes, 'active computes'),
        timeAxis(from, until),
        { wholeNumbers: true },
      ),
    ),
  ];
  const seedText = seeds.length === 1 ? `Seed ${drawn}` : `Seeds ${seeds.join(', ')}`;
  return reportPage({
    title: `computesim: compare ${input.study}`,
    heading: `Compare: ${input.study}`,
    about: input.description,
    meta: `${seedText} · ${formatDuration(parseDuration(input.duration))} of virtual time per configuration · drawn: seed ${drawn}, ${formatInstant(from)} → ${formatInstant(until)} (UTC)`,
    main: sections.join('\n'),
  });
}

/** What the figures table holds, with or without intervals (escaped). */
function figuresCaption(seeds: readonly number[], baseline: string): string {
  const text =
    seeds.length === 1
      ? `One seed (${seeds[0]}): each figure of each configuration and its difference (Δ) from ${baseline}, without intervals: one seed cannot tell a difference from luck. Compare with several seeds (--seeds 5) for 95% intervals.`
      : `Every configuration ran the same ${seeds.length} seeds, and a seed's sessions are the same under each. Mean ±half the 95% interval across the seeds; Δ: the mean of the differences from ${baseline}, seed by seed, ±half its 95% interval (in bold where the interval leaves out 0).`;
  return escapeXml(text);
}

function armClass(prefix: string, index: number): string {
  return `${prefix}-${index % ARM_COLOURS}`;
}

/**
 * Why the CU chart may spike at the same hours in every configuration: the control plane's periodic
 * availability checks start each checked branch's idle compute for a moment. Said when the drawn
 * runs had any.
 */
function checksNote(arms: readonly CompareArm[]): string {
  const checks = arms[0]?.lanes
    .flatMap((lane) => lane.operations)
    .filter((operation) => operation.action === 'check_availability').length;
  if (checks === undefined || checks === 0) return '';
  return (
    ` Spikes at the same hours under every configuration are availability checks of the control ` +
    `plane (${checks} under ${arms[0]?.name ?? 'the first configuration'}): each starts the idle ` +
    `compute of its branch for a moment (profile setting availabilityChecks, every 6 hours by default).`
  );
}
