/**
 * The time axis of every chart: a linear scale from virtual instants to x pixels, and tick marks at
 * round UTC steps (1 s … 1 week) labelled as clock times, with the date when the span crosses days;
 * drawn under lane charts, and under line charts as their x axis (`timeAxis`).
 */
import { escapeXml } from './escapeXml.js';
import { AXIS_DEPTH, type XAxisOf } from './xAxis.js';

const STEPS = [
  1_000, 5_000, 10_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000,
  7_200_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000, 172_800_000, 604_800_000,
  1_209_600_000, 2_419_200_000,
];
const DAY = 86_400_000;
/** Rough width of one character of a tick label (11 px system font), px. */
const LABEL_CHAR_PX = 6.2;

/** A time scale over `[from, until]` onto `[left, right]` pixels. */
export interface TimeScale {
  readonly from: number;
  readonly until: number;
  readonly left: number;
  readonly right: number;
  x(at: number): number;
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

/** Round instants to mark, at most `max` of them. */
export function timeTicks(scale: TimeScale, max = 8): number[] {
  const span = scale.until - scale.from;
  const step = STEPS.find((s) => span / s <= max) ?? Math.ceil(span / max / DAY) * DAY;
  const ticks: number[] = [];
  for (let at = Math.ceil(scale.from / step) * step; at <= scale.until; at += step) ticks.push(at);
  return ticks;
}

/** `09:05`, `09:05:30`, or `01-06 09:00` when the chart crosses a UTC day (UTC). */
export function tickLabel(at: number, scale: TimeScale): string {
  const iso = new Date(at).toISOString();
  const clock = at % 60_000 === 0 ? iso.slice(11, 16) : iso.slice(11, 19);
  const crossesDays = Math.floor(scale.from / DAY) !== Math.floor(scale.until / DAY);
  return crossesDays ? `${iso.slice(5, 10)} ${clock}` : clock;
}

/**
 * The axis line, ticks, labels and the "time (UTC)" title, below `y`. A label that would run into
 * the one before it is left out (its tick stays).
 */
export function timeAxisSvg(scale: TimeScale, y: number): string {
  let lastEnd = -Infinity;
  const ticks = timeTicks(scale)
    .map((at) => {
      const px = scale.x(at);
      const x = px.toFixed(1);
      const label = tickLabel(at, scale);
      // Labels at the edges grow inwards, so none is cut off.
      const anchor = px > scale.right - 40 ? 'end' : px < scale.left + 40 ? 'start' : 'middle';
      const width = label.length * LABEL_CHAR_PX;
      const start = anchor === 'start' ? px : anchor === 'end' ? px - width : px - width / 2;
      const tick = `<line x1="${x}" x2="${x}" y1="${y}" y2="${y + 5}" class="axis"/>`;
      if (start < lastEnd + 6) return tick;
      lastEnd = start + width;
      return `${tick}<text x="${x}" y="${y + 18}" text-anchor="${anchor}" class="tick">${escapeXml(label)}</text>`;
    })
    .join('');
  const middle = ((scale.left + scale.right) / 2).toFixed(1);
  return `<line x1="${scale.left}" x2="${scale.right}" y1="${y}" y2="${y}" class="axis"/>${ticks}<text x="${middle}" y="${y + 36}" text-anchor="middle" class="axis-title">time (UTC)</text>`;
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
