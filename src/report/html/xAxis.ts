/**
 * The horizontal axis of a line chart, whatever it measures: virtual time (`timeAxis`), the values
 * of a swept number (`numberAxis`) or named points in order (`categoryAxis`). A chart asks for its
 * axis once it knows its width, then places points with `x` and draws the axis under its plot.
 */
import { escapeXml } from './escapeXml.js';
import { labelWidth } from './tickLabelWidth.js';
import { formatTick, roundStep } from './valueAxis.js';

/** An x axis fitted to a chart. */
export interface XAxis {
  readonly left: number;
  readonly right: number;
  /** The pixel column of `value`. */
  x(value: number): number;
  /** The axis line, ticks, labels and title, under the plot's bottom row `y`. */
  svg(y: number): string;
  /** How far below the plot the axis with its labels and title reaches, px. */
  readonly depth: number;
}

/** An axis to fit between two pixel columns (the chart knows them, the caller knows the data). */
export type XAxisOf = (left: number, right: number) => XAxis;

/** Height of an axis with level labels: ticks, labels and its title, px. */
export const AXIS_DEPTH = 40;
/** Longest category label drawn whole; longer ones are cut (the tooltip has all of it). */
const MAX_LABEL = 28;

/** A linear axis over `values` (a little margin each side), ticked at round numbers. */
export function numberAxis(values: readonly number[], title: string): XAxisOf {
  const lowest = Math.min(...values);
  const highest = Math.max(...values);
  const span = highest > lowest ? highest - lowest : Math.max(1, Math.abs(lowest));
  const from = lowest - span * 0.05;
  const until = (highest > lowest ? highest : lowest + span) + span * 0.05;
  return (left, right) => {
    const x = (value: number) => left + ((value - from) / (until - from)) * (right - left);
    const step = roundStep((until - from) / 8);
    const ticks: number[] = [];
    for (let at = Math.ceil(from / step) * step; at <= until; at += step) ticks.push(at);
    const labels = ticks.map((at) => tickSvg(x(at), formatTick(at), left, right));
    return axis(left, right, x, labels, title, AXIS_DEPTH);
  };
}

/**
 * Named points, evenly spaced in order: point `i` is drawn at `x(i)`. Labels that would run into
 * each other are slanted, and the axis grows to hold them.
 */
export function categoryAxis(labels: readonly string[], title: string): XAxisOf {
  const shown = labels.map((label) =>
    label.length > MAX_LABEL ? `${label.slice(0, MAX_LABEL - 1)}…` : label,
  );
  const widest = Math.max(0, ...shown.map((label) => labelWidth(label)));
  return (left, right) => {
    const slot = (right - left) / Math.max(1, labels.length);
    const x = (index: number) => left + (index + 0.5) * slot;
    const slanted = widest > slot - 8;
    const ticks = shown.map((label, i) =>
      slanted
        ? `<line x1="${x(i).toFixed(1)}" x2="${x(i).toFixed(1)}" y1="0" y2="5" class="axis"/><text transform="translate(${(x(i) + 4).toFixed(1)},14) rotate(-30)" text-anchor="end" class="tick">${escapeXml(label)}<title>${escapeXml(labels[i] ?? '')}</title></text>`
        : tickSvg(x(i), label, left, right, labels[i]),
    );
    // A slanted label reaches down by half its length (sin 30°).
    const depth = slanted ? Math.ceil(22 + widest / 2) + 20 : AXIS_DEPTH;
    return axis(left, right, x, ticks, title, depth);
  };
}

/**
 * A tick and its level label at column `x`, relative to the axis line; a label near an end of the
 * axis grows inwards, so none is cut off.
 */
function tickSvg(x: number, label: string, left: number, right: number, full?: string): string {
  const at = x.toFixed(1);
  const half = labelWidth(label) / 2;
  const anchor = x + half > right + 12 ? 'end' : x - half < left - 40 ? 'start' : 'middle';
  const tooltip = full === undefined || full === label ? '' : `<title>${escapeXml(full)}</title>`;
  return `<line x1="${at}" x2="${at}" y1="0" y2="5" class="axis"/><text x="${at}" y="18" text-anchor="${anchor}" class="tick">${escapeXml(label)}${tooltip}</text>`;
}

/** The axis of `ticks` (drawn relative to the axis line) with its title at the bottom. */
function axis(
  left: number,
  right: number,
  x: (value: number) => number,
  ticks: readonly string[],
  title: string,
  depth: number,
): XAxis {
  return {
    left,
    right,
    x,
    depth,
    svg: (y) =>
      `<g transform="translate(0,${y})"><line x1="${left}" x2="${right}" y1="0" y2="0" class="axis"/>${ticks.join('')}<text x="${((left + right) / 2).toFixed(1)}" y="${depth - 4}" text-anchor="middle" class="axis-title">${escapeXml(title)}</text></g>`,
  };
}
