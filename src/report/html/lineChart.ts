/**
 * The line chart: series of values over an x axis (virtual time, a swept number, or named points),
 * drawn as steps (a value holds until the next: time charts), straight lines with marked points, or
 * dots alone; optional shaded bands (an interval around a line); a y axis of round values and a
 * legend that wraps.
 */
import { chartLegend } from './chartLegend.js';
import { escapeXml } from './escapeXml.js';
import { CHART_LEFT, CHART_WIDTH, instantMark, svg } from './laneChart.js';
import { valueScale, type ValueScale } from './valueAxis.js';
import type { XAxis, XAxisOf } from './xAxis.js';

/** One line of a chart. */
export interface Series {
  readonly name: string;
  /** CSS class that colours it. */
  readonly className: string;
  readonly points: readonly (readonly [x: number, value: number])[];
  /**
   * How its points are drawn: `steps` (each value holds until the next point; the default),
   * `line` (straight segments, each point marked), `markers` (each point marked, unjoined: points
   * that are not on one scale) or `dots` (the points alone, small).
   */
  readonly join?: 'steps' | 'line' | 'markers' | 'dots';
  /** Steps: where its last step ends (default: the right end of the axis). */
  readonly until?: number;
  /** Tooltips of its points, in order (`line` and `dots`). */
  readonly tips?: readonly string[];
}

/**
 * A shaded range around a line: from `low` to `high` at each point (an interval); a point without
 * one (`null`) breaks the band there.
 */
export interface Band {
  readonly name: string;
  /** CSS class that colours it (the page's `.band` makes it translucent). */
  readonly className: string;
  readonly points: readonly (readonly [x: number, low: number | null, high: number | null])[];
  /** Each point's interval on its own (points that are not on one scale), not one shape across. */
  readonly apart?: boolean;
}

/** How a line chart is drawn. */
export interface LineChartOptions {
  /** Only whole numbers on the y axis (counts). */
  readonly wholeNumbers?: boolean;
  /** An x value drawn as a vertical line across the plot (a fork point). */
  readonly markAt?: number;
  /** Bands drawn under the series, in the legend before them. */
  readonly bands?: readonly Band[];
}

const TOP = 6;
const PLOT = 140;
/** Width of a band around a point alone (no neighbour to shade towards), px. */
const LONE_BAND = 10;

/** An SVG chart of `series` over the x axis `axisOf` fits to the chart, its y axis titled `yTitle`. */
export function lineChart(
  title: string,
  yTitle: string,
  series: readonly Series[],
  axisOf: XAxisOf,
  options: LineChartOptions = {},
): string {
  const axis = axisOf(CHART_LEFT, CHART_WIDTH - 16);
  const bands = options.bands ?? [];
  const legend = chartLegend(
    [
      ...bands.map((b) => ({ name: b.name, className: `band ${b.className}` })),
      ...series.map((s) => ({ name: s.name, className: s.className })),
    ],
    CHART_LEFT,
    axis.right,
  );
  const top = TOP + legend.height;
  const scale = valueScale(
    [
      ...series.flatMap((s) => s.points.map(([, v]) => v)),
      ...bands.flatMap((b) => b.points.flatMap(([, low, high]) => [low ?? 0, high ?? 0])),
    ],
    { left: axis.left, right: axis.right, top, height: PLOT, title: yTitle },
    options.wholeNumbers === true,
  );
  const mark =
    options.markAt === undefined ? '' : instantMark(axis, options.markAt, top, top + PLOT);
  const shaded = bands.map((band) => bandSvg(band, axis, scale)).join('');
  const lines = series.map((s) => seriesSvg(s, axis, scale)).join('');
  return svg(
    title,
    top + PLOT + axis.depth + 12,
    `${legend.svg}${scale.svg}${mark}${shaded}${lines}${axis.svg(top + PLOT)}`,
  );
}

function seriesSvg(s: Series, axis: XAxis, scale: ValueScale): string {
  if (s.points.length === 0) return '';
  const at = s.points.map(([x, value]) => [axis.x(x).toFixed(1), scale.y(value).toFixed(1)]);
  const name = `<title>${escapeXml(s.name)}</title>`;
  const join = s.join ?? 'steps';
  if (join === 'steps') {
    const d = at.map(([px, py], i) => (i === 0 ? `M${px},${py}` : `H${px}V${py}`)).join('');
    const end = s.until === undefined ? axis.right : axis.x(s.until);
    return `<path d="${d}H${end.toFixed(1)}" class="series ${s.className}">${name}</path>`;
  }
  const dots = at
    .map(([px, py], i) => {
      const tip = s.tips?.[i];
      const title = tip === undefined ? '' : `<title>${escapeXml(tip)}</title>`;
      const r = join === 'dots' ? 3 : 3.5;
      return `<circle cx="${px}" cy="${py}" r="${r}" class="${join === 'dots' ? 'dot' : 'marker'} ${s.className}">${title}</circle>`;
    })
    .join('');
  if (join === 'dots') return `<g class="dots ${s.className}">${dots}</g>`;
  if (join === 'markers') return `<g class="markers ${s.className}">${name}${dots}</g>`;
  const d = at.map(([px, py], i) => `${i === 0 ? 'M' : 'L'}${px},${py}`).join('');
  return `<path d="${d}" class="series ${s.className}">${name}</path>${dots}`;
}

/** A band as one shape per stretch of points that have an interval; a point alone gets a narrow one. */
function bandSvg(band: Band, axis: XAxis, scale: ValueScale): string {
  const title = `<title>${escapeXml(band.name)}</title>`;
  const stretches: (readonly [number, number, number])[][] = [[]];
  for (const [x, low, high] of [...band.points].sort(([a], [b]) => a - b)) {
    if (low === null || high === null) stretches.push([]);
    else {
      stretches.at(-1)?.push([axis.x(x), scale.y(low), scale.y(high)]);
      if (band.apart === true) stretches.push([]);
    }
  }
  return stretches
    .filter((stretch) => stretch.length > 0)
    .map((stretch) => {
      const shape =
        stretch.length === 1
          ? stretch.flatMap(([px, low, high]) => [
              [px - LONE_BAND / 2, high],
              [px + LONE_BAND / 2, high],
              [px + LONE_BAND / 2, low],
              [px - LONE_BAND / 2, low],
            ])
          : [
              ...stretch.map(([px, , high]) => [px, high]),
              ...stretch.map(([px, low]) => [px, low]).reverse(),
            ];
      const d = shape.map(([px, py]) => `${px?.toFixed(1)},${py?.toFixed(1)}`).join('L');
      return `<path d="M${d}Z" class="band ${band.className}">${title}</path>`;
    })
    .join('');
}
