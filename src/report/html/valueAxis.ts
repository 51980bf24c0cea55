/**
 * The value (y) axis of line charts: a linear scale from 0 (or below, when a value is negative) up
 * to a round top, with dashed grid lines at round steps labelled on the left, and the axis title.
 */
import { escapeXml } from './escapeXml.js';

/** A value scale onto a plot's pixel rows, and its grid drawn across the plot. */
export interface ValueScale {
  /** The pixel row of `value`. */
  y(value: number): number;
  /** The grid lines, their labels and the axis title. */
  readonly svg: string;
}

/** Where a value scale is drawn: the plot's box and the axis title. */
export interface ValueAxisBox {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly height: number;
  readonly title: string;
}

/**
 * A scale that holds every one of `values` (and 0), its bounds on the grid: at most about five
 * lines; only whole-number steps when `wholeNumbers`.
 */
export function valueScale(
  values: readonly number[],
  box: ValueAxisBox,
  wholeNumbers = false,
): ValueScale {
  const finite = values.filter(Number.isFinite);
  const highest = Math.max(0, ...finite);
  const lowest = Math.min(0, ...finite);
  const step = roundStep((highest - lowest) / 4, wholeNumbers);
  const min = Math.floor(lowest / step + 1e-9) * step;
  const max = Math.max(min + step, Math.ceil(highest / step - 1e-9) * step);
  const y = (value: number) => box.top + box.height - ((value - min) / (max - min)) * box.height;
  const lines = Array.from({ length: Math.round((max - min) / step) + 1 }, (_, i) => min + i * step)
    .map((value) => {
      const py = y(value).toFixed(1);
      return `<line x1="${box.left}" x2="${box.right}" y1="${py}" y2="${py}" class="grid"/><text x="${box.left - 6}" y="${py}" dy="4" text-anchor="end" class="tick">${formatTick(value)}</text>`;
    })
    .join('');
  const title = `<text transform="translate(${box.left - 52},${box.top + box.height / 2}) rotate(-90)" text-anchor="middle" class="axis-title">${escapeXml(box.title)}</text>`;
  return { y, svg: lines + title };
}

/** A round step (1, 2, 2.5 or 5 × 10^n) of at least `raw` (0.25 when `raw` is not positive). */
export function roundStep(raw: number, wholeNumbers = false): number {
  const wanted = raw > 0 ? raw : 0.25;
  const power = 10 ** Math.floor(Math.log10(wanted));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * power >= wanted * (1 - 1e-9)) ?? 10) * power;
  return wholeNumbers ? Math.max(1, Math.ceil(step)) : step;
}

/** A tick value without floating-point noise (`0.30000000000000004` → `0.3`). */
export function formatTick(value: number): string {
  return String(Number(value.toFixed(6)));
}
