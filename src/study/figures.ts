/**
 * The headline figures of a run, named once: comparison tables, sweep tables, CSV columns and JSON
 * keys all read them from here, so every output lists the same figures in the same order.
 */
import type { FleetMetrics } from '../projection/metrics.js';

/** One headline figure: a stable key (JSON, CSV), a label (tables), and how to read it. */
export interface Figure {
  readonly key: string;
  readonly label: string;
  readonly value: (metrics: FleetMetrics) => number;
  /** Decimal places in tables. */
  readonly digits: number;
  /**
   * Whether a run has this figure at all (a percentile needs samples: a run without cold starts
   * has no cold-start wait, which is not a wait of 0). Default: always.
   */
  readonly available?: (metrics: FleetMetrics) => boolean;
}

const total = (table: Readonly<Record<string, number>>): number =>
  Object.values(table).reduce((a, b) => a + b, 0);

/** The headline figures, in table order. */
export const FIGURES: readonly Figure[] = [
  { key: 'cuHours', label: 'CU-hours', value: (m) => m.cuHours, digits: 1 },
  { key: 'costEstimate', label: 'cost estimate', value: (m) => m.costEstimate, digits: 2 },
  { key: 'activeHours', label: 'active compute-hours', value: (m) => m.activeHours, digits: 1 },
  { key: 'starts', label: 'starts', value: (m) => m.starts, digits: 0 },
  { key: 'suspends', label: 'suspends', value: (m) => m.suspends, digits: 0 },
  { key: 'resizes', label: 'autoscaling moves', value: (m) => m.resizes, digits: 0 },
  { key: 'sessions', label: 'sessions', value: (m) => m.sessions, digits: 0 },
  { key: 'coldStarts', label: 'cold starts felt', value: (m) => m.coldStarts, digits: 0 },
  {
    key: 'coldStartWaitP50Ms',
    label: 'cold-start wait p50 (ms)',
    value: (m) => m.coldStartWaitMs.p50,
    digits: 0,
    available: (m) => m.coldStartWaitMs.count > 0,
  },
  {
    key: 'coldStartWaitP95Ms',
    label: 'cold-start wait p95 (ms)',
    value: (m) => m.coldStartWaitMs.p95,
    digits: 0,
    available: (m) => m.coldStartWaitMs.count > 0,
  },
  {
    key: 'coldStartWaitP99Ms',
    label: 'cold-start wait p99 (ms)',
    value: (m) => m.coldStartWaitMs.p99,
    digits: 0,
    available: (m) => m.coldStartWaitMs.count > 0,
  },
  {
    key: 'coldCacheDelayP95Ms',
    label: 'cold-cache delay p95 (ms)',
    value: (m) => m.coldCacheDelayMs.p95,
    digits: 0,
    available: (m) => m.coldCacheDelayMs.count > 0,
  },
  { key: 'refused', label: 'connections refused', value: (m) => total(m.refused), digits: 0 },
  { key: 'dropped', label: 'connections dropped', value: (m) => total(m.dropped), digits: 0 },
  {
    key: 'operations',
    label: 'operations',
    value: (m) => Object.values(m.operations).reduce((a, byStatus) => a + total(byStatus), 0),
    digits: 0,
  },
  {
    key: 'lockedRequests',
    label: 'requests refused 423',
    value: (m) => m.lockedRequests,
    digits: 0,
  },
];

/** A figure of a run, or `undefined` when the run has none (see `Figure.available`). */
export function figureOf(figure: Figure, metrics: FleetMetrics): number | undefined {
  return figure.available === undefined || figure.available(metrics)
    ? figure.value(metrics)
    : undefined;
}

/** A number as tables show it: thousands separators, fixed decimals; `–` for no value. */
export function formatFigure(value: number | undefined, digits: number): string {
  if (value === undefined || !Number.isFinite(value)) return '–';
  return value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/**
 * The sign a difference is printed with: `+` or `−`, or `±` where it prints as zero at `digits`
 * (a mean difference of −0.3 shown with no decimals reads `±0`, not `−0`).
 */
export function differenceSign(difference: number, digits: number): '+' | '−' | '±' {
  if (formatFigure(Math.abs(difference), digits) === formatFigure(0, digits)) return '±';
  return difference > 0 ? '+' : '−';
}

/** How one column of a text table is laid out. */
export interface TextColumn {
  /** Which side its cells line up on. */
  readonly align: 'left' | 'right';
  /** Spaces between it and the column before (default 2). */
  readonly gap?: number;
}

/**
 * A plain-text table, one cell per column and row: by default the first column left-aligned, the
 * others right-aligned, two spaces apart; `columns` lays them out otherwise. Every row's cells start
 * at the same character position; trailing spaces are trimmed.
 */
export function textTable(
  rows: readonly (readonly string[])[],
  columns: readonly TextColumn[] = [],
): string {
  const count = Math.max(0, ...rows.map((row) => row.length));
  const widths = Array.from({ length: count }, (_, c) =>
    Math.max(...rows.map((row) => (row[c] ?? '').length)),
  );
  const layout = (c: number): TextColumn => columns[c] ?? { align: c === 0 ? 'left' : 'right' };
  return rows
    .map((row) =>
      widths
        .map((width, c) => {
          const cell = row[c] ?? '';
          const padded = layout(c).align === 'left' ? cell.padEnd(width) : cell.padStart(width);
          return c === 0 ? padded : ' '.repeat(layout(c).gap ?? 2) + padded;
        })
        .join('')
        .trimEnd(),
    )
    .join('\n');
}

/**
 * The columns of a side-by-side table of configurations: labels, the baseline's values, then for
 * each of the `others` a right-aligned column of its values and, one space after, a left-aligned
 * column of its deltas to the baseline (headed `(Δ)`), so that values line up and so do deltas.
 */
export function deltaTableColumns(others: number): TextColumn[] {
  return [
    { align: 'left' },
    { align: 'right' },
    ...Array.from({ length: others }, (): TextColumn[] => [
      { align: 'right' },
      { align: 'left', gap: 1 },
    ]).flat(),
  ];
}
