/**
 * The lane chart: one lane per compute, coloured by state over time (init, active, idle), with its
 * operations as ticks above the lane (coloured by how they ended; hover for the action).
 */
import type { ComputeLane } from '../computeLanes.js';
import { escapeXml } from './escapeXml.js';
import { timeAxisSvg, timeScale } from './timeAxis.js';

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

/** An SVG lane chart of `lanes` over `[from, until]`. */
export function laneChart(lanes: readonly ComputeLane[], from: number, until: number): string {
  const scale = timeScale(from, until, LABEL, WIDTH - 16);
  const height = TOP + lanes.length * LANE + 44;
  const rows = lanes
    .map((lane, i) => {
      const y = TOP + i * LANE;
      const spans = lane.spans
        .map((span) => {
          const x = scale.x(span.from);
          const w = Math.max(scale.x(span.to) - x, 0.5);
          return `<rect x="${x.toFixed(1)}" y="${y + 12}" width="${w.toFixed(1)}" height="16" class="${STATE_CLASS[span.state] ?? 'st-idle'}"><title>${escapeXml(`${lane.endpointId}: ${span.state} from ${iso(span.from)} to ${iso(span.to)}`)}</title></rect>`;
        })
        .join('');
      const marks = lane.operations
        .map((op) => {
          const x = scale.x(op.at).toFixed(1);
          return `<line x1="${x}" x2="${x}" y1="${y + 2}" y2="${y + 11}" class="op op-${escapeXml(op.status)}"><title>${escapeXml(`${op.action} at ${iso(op.at)}: ${op.status}`)}</title></line>`;
        })
        .join('');
      const label = `${lane.endpointId}${lane.type === 'read_only' ? ' (ro)' : ''}`;
      return `<g class="lane"><text x="${LABEL - 8}" y="${y + 24}" text-anchor="end" class="lane-label">${escapeXml(label)}</text>${spans}${marks}</g>`;
    })
    .join('');
  return svg(
    'Computes over time',
    height,
    `${rows}${timeAxisSvg(scale, TOP + lanes.length * LANE + 4)}`,
  );
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
