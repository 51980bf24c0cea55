/**
 * A horizontal stacked bar chart: operations per action, split by how they ended.
 */
import { escapeXml } from './escapeXml.js';
import { CHART_LEFT, CHART_WIDTH, svg } from './laneChart.js';

/** One part of a bar. */
interface BarSegment {
  readonly name: string;
  readonly className: string;
  readonly value: number;
}

/** One bar. */
export interface Bar {
  readonly label: string;
  readonly segments: readonly BarSegment[];
}

const BAR = 22;
const TOP = 30;

/** An SVG chart of `bars`, the x axis titled `xTitle`. */
export function barChart(title: string, xTitle: string, bars: readonly Bar[]): string {
  const right = CHART_WIDTH - 60;
  const total = (bar: Bar) => bar.segments.reduce((a, s) => a + s.value, 0);
  const max = Math.max(1, ...bars.map(total));
  const x = (value: number) => CHART_LEFT + (value / max) * (right - CHART_LEFT);
  const names = [...new Map(bars.flatMap((b) => b.segments.map((s) => [s.name, s]))).values()];
  const legend = names
    .map(
      (s, i) =>
        `<rect x="${CHART_LEFT + i * 130}" y="6" width="12" height="12" class="swatch ${s.className}"/><text x="${CHART_LEFT + 18 + i * 130}" y="16" class="legend">${escapeXml(s.name)}</text>`,
    )
    .join('');
  const rows = bars
    .map((bar, i) => {
      const y = TOP + i * (BAR + 6);
      let at = 0;
      const parts = bar.segments
        .filter((s) => s.value > 0)
        .map((s) => {
          const from = x(at);
          at += s.value;
          return `<rect x="${from.toFixed(1)}" y="${y}" width="${(x(at) - from).toFixed(1)}" height="${BAR}" class="bar ${s.className}"><title>${escapeXml(`${bar.label}: ${s.value} ${s.name}`)}</title></rect>`;
        })
        .join('');
      return `<text x="${CHART_LEFT - 8}" y="${y + 15}" text-anchor="end" class="lane-label">${escapeXml(bar.label)}</text>${parts}<text x="${(x(at) + 6).toFixed(1)}" y="${y + 15}" class="tick">${total(bar)}</text>`;
    })
    .join('');
  const axisY = TOP + bars.length * (BAR + 6) + 4;
  const axis = `<line x1="${CHART_LEFT}" x2="${right}" y1="${axisY}" y2="${axisY}" class="axis"/><text x="${((CHART_LEFT + right) / 2).toFixed(1)}" y="${axisY + 22}" text-anchor="middle" class="axis-title">${escapeXml(xTitle)}</text>`;
  return svg(title, axisY + 32, `${legend}${rows}${axis}`);
}
