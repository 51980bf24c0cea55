/**
 * The legend above a chart: a swatch and a name per item, in rows that wrap at the chart's right
 * edge, so any number of configurations or long names fit without running into each other.
 */
import { escapeXml } from './escapeXml.js';

/** One entry of a legend. */
export interface LegendItem {
  readonly name: string;
  /** Classes of its swatch (the page's stylesheet colours them). */
  readonly className: string;
}

/** A legend drawn at a chart's top: its SVG and how tall its rows are. */
export interface ChartLegend {
  readonly svg: string;
  readonly height: number;
}

/** Width each entry takes at least, px (short names line up in columns). */
const SLOT = 190;
/** Rough width of one character of legend text (12 px system font), px. */
const CHAR_PX = 6.8;
const ROW = 22;

/** The legend of `items`, from `left` to `right`. */
export function chartLegend(
  items: readonly LegendItem[],
  left: number,
  right: number,
): ChartLegend {
  let x = left;
  let row = 0;
  const parts = items.map((item) => {
    const width = Math.max(SLOT, Math.ceil(18 + item.name.length * CHAR_PX + 24));
    if (x > left && x + width > right) [x, row] = [left, row + 1];
    const y = 6 + row * ROW;
    const part = `<rect x="${x}" y="${y}" width="12" height="12" class="swatch ${item.className}"/><text x="${x + 18}" y="${y + 10}" class="legend">${escapeXml(item.name)}</text>`;
    x += width;
    return part;
  });
  return { svg: parts.join(''), height: (row + 1) * ROW };
}
