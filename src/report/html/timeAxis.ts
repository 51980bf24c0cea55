/**
 * The time axis of every chart: a linear scale from virtual instants to x pixels, and tick marks at
 * round UTC steps (1 s … weeks) labelled as clock times, with the date when the span crosses days;
 * drawn under lane charts, and under line charts as their x axis (`timeAxis`). How many ticks
 * depends on the chart's width as well as its span: labels are measured (estimated) and laid out so
 * that none overlaps another or runs off the plot.
 */
import { escapeXml } from './escapeXml.js';
import { labelWidth } from './tickLabelWidth.js';
import { AXIS_DEPTH, type XAxisOf } from './xAxis.js';

const STEPS = [
  1_000, 5_000, 10_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000,
  7_200_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000, 172_800_000, 604_800_000,
  1_209_600_000, 2_419_200_000,
];
const DAY = 86_400_000;

/** Least space between two labels, px. */
const LABEL_GAP_PX = 8;

/** A time scale over `[from, until]` onto `[left, right]` pixels. */
export interface TimeScale {
  readonly from: number;
  readonly until: number;
  readonly left: number;
  readonly right: number;
  readonly x: (at: number) => number;
}

/** One tick's label as drawn: its text, and the x of its middle (inset from the plot's ends). */
export interface TickLabel {
  readonly at: number;
  readonly text: string;
  readonly x: number;
  /** Its estimated width, px (see `labelWidth`). */
  readonly width: number;
}

/** A linear scale (a zero-length span is widened to one second). */
export function timeScale(from: number, until: number, left: number, right: number): TimeScale {
  const span = Math.max(until - from, 1_000);
  return {
    from,
    until: from + span,
    left,
    right,
    x: (at) => left + ((at - from) / span) * (right - left),
  };
}

/**
 * Round instants to mark: the finest round step that gives at most `max + 1` ticks whose labels all
 * fit side by side in the plot's width (see `tickLabels`). When none does (a plot about as narrow as
 * two labels), the coarsest step's ticks that keep their labels.
 */
export function timeTicks(scale: TimeScale, max = 8): number[] {
  const span = scale.until - scale.from;
  let coarsest: number[] = [];
  for (const step of candidateSteps(span, max)) {
    const ticks = ticksEvery(scale, step);
    if (ticks.length === 0) continue;
    coarsest = ticks;
    if (labelsFit(scale, ticks)) return ticks;
  }
  return tickLabels(scale, coarsest).map((label) => label.at);
}

/** `09:05`, `09:05:30`, or `01-06 09:00` when the chart crosses a UTC day (UTC). */
export function tickLabel(at: number, scale: TimeScale): string {
  const iso = new Date(at).toISOString();
  const clock = at % 60_000 === 0 ? iso.slice(11, 16) : iso.slice(11, 19);
  const crossesDays = Math.floor(scale.from / DAY) !== Math.floor(scale.until / DAY);
  return crossesDays ? `${iso.slice(5, 10)} ${clock}` : clock;
}

/**
 * The labels of `ticks`, each centred under its tick but moved inwards when it would run off the
 * plot, and left out when it would come closer than a small gap to the label before it: whatever
 * the span and width, no two labels overlap.
 */
export function tickLabels(scale: TimeScale, ticks: readonly number[]): TickLabel[] {
  const labels: TickLabel[] = [];
  for (const at of ticks) {
    const text = tickLabel(at, scale);
    const width = labelWidth(text);
    const x = inset(scale.x(at), width, scale);
    const previous = labels.at(-1);
    if (previous !== undefined && x - width / 2 < previous.x + previous.width / 2 + LABEL_GAP_PX)
      continue;
    labels.push({ at, text, x, width });
  }
  return labels;
}

/** The axis line, ticks, labels and the "time (UTC)" title, below `y`. */
export function timeAxisSvg(scale: TimeScale, y: number): string {
  const ticks = timeTicks(scale);
  const marks = ticks
    .map((at) => {
      const x = scale.x(at).toFixed(1);
      return `<line x1="${x}" x2="${x}" y1="${y}" y2="${y + 5}" class="axis"/>`;
    })
    .join('');
  const labels = tickLabels(scale, ticks)
    .map(
      (label) =>
        `<text x="${label.x.toFixed(1)}" y="${y + 18}" text-anchor="middle" class="tick time-tick">${escapeXml(label.text)}</text>`,
    )
    .join('');
  const middle = ((scale.left + scale.right) / 2).toFixed(1);
  return `<line x1="${scale.left}" x2="${scale.right}" y1="${y}" y2="${y}" class="axis"/>${marks}${labels}<text x="${middle}" y="${y + 36}" text-anchor="middle" class="axis-title">time (UTC)</text>`;
}

/** The time axis as a line chart's x axis over `[from, until]`. */
export function timeAxis(from: number, until: number): XAxisOf {
  return (left, right) => {
    const scale = timeScale(from, until, left, right);
    return {
      left,
      right,
      x: scale.x,
      svg: (y) => timeAxisSvg(scale, y),
      depth: AXIS_DEPTH,
    };
  };
}

/** The round steps worth trying for `span`, finest first, each giving at most `max + 1` ticks. */
function candidateSteps(span: number, max: number): number[] {
  const round = STEPS.filter((step) => span / step <= max);
  // Beyond the round steps: whole days, fewer ticks each time, down to one.
  const days = Array.from({ length: max }, (_, i) => Math.ceil(span / (max - i) / DAY) * DAY);
  return [...new Set([...round, ...days])].sort((a, b) => a - b);
}

/** The multiples of `step` in the scale's span. */
function ticksEvery(scale: TimeScale, step: number): number[] {
  const ticks: number[] = [];
  for (let at = Math.ceil(scale.from / step) * step; at <= scale.until; at += step) ticks.push(at);
  return ticks;
}

/** Whether every tick of `ticks` keeps its label (none collides with its neighbour). */
function labelsFit(scale: TimeScale, ticks: readonly number[]): boolean {
  return tickLabels(scale, ticks).length === ticks.length;
}

/** The middle of a label `width` wide at `x`, moved so that it stays within the plot if it can. */
function inset(x: number, width: number, scale: TimeScale): number {
  const half = width / 2;
  if (scale.right - scale.left <= width) return (scale.left + scale.right) / 2;
  return Math.min(Math.max(x, scale.left + half), scale.right - half);
}
