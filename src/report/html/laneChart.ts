/**
 * The lane chart: one lane per compute (the first 40, or as many as asked), coloured by state over time (init, active,
 * idle), with its operations as ticks above the lane (coloured by how they ended; hover for what).
 */
import type { ComputeLane, OperationMark } from '../../projection/computeLanes.js';
import { escapeXml } from './escapeXml.js';
import { timeAxisSvg, timeScale, type TimeScale } from './timeAxis.js';

const WIDTH = 960;
const LABEL = 230;
const LANE = 34;
const TOP = 8;

/** CSS classes of states and operation outcomes (the page's stylesheet colours them). */
const STATE_CLASS: Readonly<Record<string, string>> = {
  init: 'st-init',
  active: 'st-active',
  idle: 'st-idle',
};

/** Lanes drawn at most; a fleet's report lists the rest by count. */
const MAX_LANES = 40;
/** Width of the columns operation ticks are gathered in, px. */
const TICK_PX = 4;
const STATES = ['init', 'active', 'idle'] as const;
const OUTCOME_RANK: Readonly<Record<string, number>> = {
  finished: 0,
  unfinished: 1,
  cancelled: 2,
  error: 3,
};

/**
 * How many lanes a lane chart draws and what it says of the rest; optional labels and extra classes
 * (per lane, in order) and a marked instant.
 */
export interface LaneChartOptions {
  /** Lanes drawn at most (default 40). */
  readonly max?: number;
  /**
   * A line under the chart about the lanes not drawn (the dashboard sums them up); default, when
   * some are left out: how many.
   */
  readonly note?: string;
  readonly labels?: readonly string[];
  readonly classes?: readonly string[];
  /** An instant drawn as a vertical line across the chart (a fork point). */
  readonly markAt?: number;
}

/**
 * An SVG lane chart of `lanes` over `[from, until]`. Each lane is drawn per pixel column (the state
 * that took most of the column, operations in it as one tick with their count), so its size
 * depends on the chart's width, not on how long the run was.
 */
export function laneChart(
  lanes: readonly ComputeLane[],
  from: number,
  until: number,
  options: LaneChartOptions = {},
): string {
  const scale = timeScale(from, until, LABEL, WIDTH - 16);
  const shown = lanes.slice(0, options.max ?? MAX_LANES);
  const more = lanes.length - shown.length;
  const noteText =
    options.note ??
    (more > 0
      ? `… and ${more} more compute${more === 1 ? '' : 's'} (the metrics count them all)`
      : '');
  const height = TOP + shown.length * LANE + 44 + (noteText === '' ? 0 : 18);
  const rows = shown
    .map((lane, i) => {
      const y = TOP + i * LANE;
      const label =
        options.labels?.[i] ?? `${lane.endpointId}${lane.type === 'read_only' ? ' (ro)' : ''}`;
      const className = options.classes?.[i] === undefined ? 'lane' : `lane ${options.classes[i]}`;
      return `<g class="${escapeXml(className)}"><text x="${LABEL - 8}" y="${y + 24}" text-anchor="end" class="lane-label">${escapeXml(label)}</text>${stateRects(lane, scale, y)}${operationTicks(lane, scale, y)}</g>`;
    })
    .join('');
  const axisY = TOP + shown.length * LANE + 4;
  const note =
    noteText === ''
      ? ''
      : `<text x="${LABEL}" y="${axisY + 54}" class="tick">${escapeXml(noteText)}</text>`;
  const mark = options.markAt === undefined ? '' : instantMark(scale, options.markAt, TOP, axisY);
  return svg('Computes over time', height, `${rows}${mark}${timeAxisSvg(scale, axisY)}${note}`);
}

/** A vertical line at `at` from `top` to `bottom`, with the instant as its tooltip. */
export function instantMark(
  scale: Pick<TimeScale, 'x'>,
  at: number,
  top: number,
  bottom: number,
): string {
  const x = scale.x(at).toFixed(1);
  return `<line x1="${x}" x2="${x}" y1="${top}" y2="${bottom}" class="instant-mark"><title>${escapeXml(iso(at))}</title></line>`;
}

/** The lane's states, one run of rects per stretch of pixel columns with the same main state. */
function stateRects(lane: ComputeLane, scale: TimeScale, y: number): string {
  const columns = Math.ceil(scale.right - scale.left);
  const time = new Float64Array(columns * STATES.length);
  const perPixel = (scale.until - scale.from) / (scale.right - scale.left);
  for (const span of lane.spans) {
    const state = STATES.indexOf(span.state as (typeof STATES)[number]);
    if (state < 0) continue;
    const first = Math.max(0, Math.floor(scale.x(span.from) - scale.left));
    const last = Math.min(columns - 1, Math.floor(scale.x(span.to) - scale.left));
    for (let c = first; c <= last; c++) {
      const start = Math.max(span.from, scale.from + c * perPixel);
      const end = Math.min(span.to, scale.from + (c + 1) * perPixel);
      const at = c * STATES.length + state;
      if (end > start) time[at] = (time[at] as number) + end - start;
    }
  }
  let out = '';
  let runState = -1;
  let runStart = 0;
  const flush = (end: number) => {
    if (runState < 0) return;
    const name = STATES[runState] as string;
    const x = scale.left + runStart;
    const title = `${lane.endpointId}: ${name} from ${iso(scale.from + runStart * perPixel)} to ${iso(scale.from + end * perPixel)}`;
    out += `<rect x="${x.toFixed(1)}" y="${y + 12}" width="${(end - runStart).toFixed(1)}" height="16" class="${STATE_CLASS[name] ?? 'st-idle'}"><title>${escapeXml(title)}</title></rect>`;
  };
  for (let c = 0; c < columns; c++) {
    let best = -1;
    let most = 0;
    for (let s = 0; s < STATES.length; s++) {
      const t = time[c * STATES.length + s] as number;
      if (t > most) [best, most] = [s, t];
    }
    if (best === runState) continue;
    flush(c);
    runState = best;
    runStart = c;
  }
  flush(columns);
  return out;
}

/** One tick per few-pixel column holding operations, coloured by the worst way one of them ended. */
function operationTicks(lane: ComputeLane, scale: TimeScale, y: number): string {
  const columns = new Map<number, OperationMark[]>();
  for (const op of lane.operations) {
    const c = Math.floor((scale.x(op.at) - scale.left) / TICK_PX) * TICK_PX + scale.left;
    let list = columns.get(c);
    if (list === undefined) columns.set(c, (list = []));
    list.push(op);
  }
  let out = '';
  for (const [c, ops] of columns) {
    const worst = ops.reduce((a, b) =>
      (OUTCOME_RANK[b.status] ?? 0) > (OUTCOME_RANK[a.status] ?? 0) ? b : a,
    );
    const title =
      ops.length === 1
        ? `${worst.action} at ${iso(worst.at)}: ${worst.status}`
        : `${ops.length} operations: ${summary(ops)}`;
    out += `<line x1="${c + 0.5}" x2="${c + 0.5}" y1="${y + 2}" y2="${y + 11}" class="op op-${escapeXml(worst.status)}"><title>${escapeXml(title)}</title></line>`;
  }
  return out;
}

function summary(ops: readonly OperationMark[]): string {
  const counts = new Map<string, number>();
  for (const op of ops) {
    const key = op.status === 'finished' ? op.action : `${op.action} ${op.status}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => `${key} ×${n}`).join(', ');
}

function iso(at: number): string {
  return new Date(at).toISOString().replace('.000Z', 'Z');
}

/** An `<svg>` element with a title for screen readers. */
export function svg(title: string, height: number, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="${escapeXml(title)}"><title>${escapeXml(title)}</title>${body}</svg>`;
}

/** Width of every chart, px. */
export const CHART_WIDTH = WIDTH;
/** Left margin of every time chart (room for labels), px. */
export const CHART_LEFT = LABEL;
