/**
 * A step-line chart of values over time (total CU; active computes and connections), with a y
 * axis of round values, a legend, and the shared time axis.
 */
import { escapeXml } from './escapeXml.js';
import { CHART_LEFT, CHART_WIDTH, instantMark, svg } from './laneChart.js';
import { timeAxisSvg, timeScale } from './timeAxis.js';

/** One line of a chart. */
export interface Series {
  readonly name: string;
  /** CSS class that colours it. */
  readonly className: string;
  readonly points: readonly (readonly [at: number, value: number])[];
  /** Where its last step ends (default: the chart's end). */
  readonly until?: number;
}

const HEIGHT = 220;
const TOP = 28;
const PLOT = 140;

/** An SVG step chart of `series` over `[from, until]`, its y axis titled `yTitle`. */
export function lineChart(
  title: string,
  yTitle: string,
  series: readonly Series[],
  from: number,
  until: number,
  options: { readonly wholeNumbers?: boolean; readonly markAt?: number } = {},
): string {
  const scale = timeScale(from, until, CHART_LEFT, CHART_WIDTH - 16);
  const highest = Math.max(0, ...series.flatMap((s) => s.points.map(([, v]) => v)));
  const step = gridStep(highest, options.wholeNumbers === true);
  const max = Math.max(step, Math.ceil(highest / step - 1e-9) * step);
  const y = (value: number) => TOP + PLOT - (value / max) * PLOT;
  const values = Array.from({ length: Math.round(max / step) + 1 }, (_, i) => i * step);
  const grid = values
    .map((value) => {
      const py = y(value).toFixed(1);
      return `<line x1="${CHART_LEFT}" x2="${CHART_WIDTH - 16}" y1="${py}" y2="${py}" class="grid"/><text x="${CHART_LEFT - 6}" y="${py}" dy="4" text-anchor="end" class="tick">${formatValue(value)}</text>`;
    })
    .join('');
  const mark =
    options.markAt === undefined ? '' : instantMark(scale, options.markAt, TOP, TOP + PLOT);
  const lines = series
    .map((s) => {
      if (s.points.length === 0) return '';
      let d = '';
      s.points.forEach(([at, value], i) => {
        const px = scale.x(at).toFixed(1);
        const py = y(value).toFixed(1);
        d += i === 0 ? `M${px},${py}` : `H${px}V${py}`;
      });
      d += `H${scale.x(s.until ?? until).toFixed(1)}`;
      return `<path d="${d}" class="series ${s.className}"><title>${escapeXml(s.name)}</title></path>`;
    })
    .join('');
  const legend = series
    .map(
      (s, i) =>
        `<rect x="${CHART_LEFT + i * 190}" y="6" width="12" height="12" class="swatch ${s.className}"/><text x="${CHART_LEFT + 18 + i * 190}" y="16" class="legend">${escapeXml(s.name)}</text>`,
    )
    .join('');
  const yLabel = `<text transform="translate(${CHART_LEFT - 52},${TOP + PLOT / 2}) rotate(-90)" text-anchor="middle" class="axis-title">${escapeXml(yTitle)}</text>`;
  return svg(
    title,
    HEIGHT,
    `${legend}${grid}${yLabel}${mark}${lines}${timeAxisSvg(scale, TOP + PLOT)}`,
  );
}

/** A round grid step (1, 2, 2.5 or 5 × 10^n) giving at most about five lines up to `highest`. */
function gridStep(highest: number, wholeNumbers: boolean): number {
  const raw = highest <= 0 ? 0.25 : highest / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * power >= raw * (1 - 1e-9)) ?? 10) * power;
  return wholeNumbers ? Math.max(1, Math.ceil(step)) : step;
}

function formatValue(value: number): string {
  return String(Number(value.toFixed(6)));
}
