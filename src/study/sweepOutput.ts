/**
 * A sweep's results as people and tools read them: a text table (mean ± half of the 95% interval
 * for a few figures per point) and CSV (every figure's mean and interval per point).
 */
import { FIGURES, formatFigure, textTable, type Figure } from './figures.js';
import type { MeanInterval } from './interval.js';
import type { SweepResult } from './sweepResult.js';

/** Figures the sweep table shows unless told otherwise. */
export const DEFAULT_TABLE_FIGURES: readonly string[] = [
  'cuHours',
  'costEstimate',
  'starts',
  'coldStarts',
  'coldStartWaitP95Ms',
  'sessions',
];

/** The figures named by `keys`; throws a `RangeError` listing the known keys for an unknown one. */
export function figuresByKey(keys: readonly string[]): Figure[] {
  return keys.map((key) => {
    const figure = FIGURES.find((f) => f.key === key);
    if (figure === undefined)
      throw new RangeError(
        `unknown figure "${key}" (figures: ${FIGURES.map((f) => f.key).join(', ')})`,
      );
    return figure;
  });
}

/** One row per point: its parameters, the number of seeds, then `mean ±half-interval` per figure. */
export function sweepTable(
  result: SweepResult,
  figureKeys: readonly string[] = DEFAULT_TABLE_FIGURES,
): string {
  const figures = figuresByKey(figureKeys);
  const header = [
    result.parameters.length === 0 ? 'configuration' : 'point',
    'seeds',
    ...figures.map((f) => f.label),
  ];
  const rows = result.points.map((point) => [
    point.name,
    String(result.seeds.length),
    ...figures.map((f) => withInterval(point.summary[f.key] as MeanInterval, f.digits)),
  ]);
  return textTable([header, ...rows]);
}

/** `12.3 ±0.4`: a mean and the half-width of its 95% interval (the mean alone without one). */
export function withInterval(value: MeanInterval, digits: number): string {
  const mean = formatFigure(value.n === 0 ? undefined : value.mean, digits);
  if (value.high === null) return mean;
  return `${mean} ±${formatFigure(value.high - value.mean, digits)}`;
}

/** CSV, one row per point: name, parameters, seeds, then `<figure>_mean,_low,_high` per figure. */
export function sweepCsv(result: SweepResult): string {
  const header = [
    'point',
    ...result.parameters,
    'seeds',
    ...FIGURES.flatMap((f) => [`${f.key}_mean`, `${f.key}_low`, `${f.key}_high`]),
  ];
  const rows = result.points.map((point) => {
    const params = (point.params ?? {}) as Readonly<Record<string, unknown>>;
    return [
      point.name,
      ...result.parameters.map((name) => String(params[name])),
      String(result.seeds.length),
      ...FIGURES.flatMap((f) => {
        const value = point.summary[f.key] as MeanInterval;
        return [number(value.mean), number(value.low), number(value.high)];
      }),
    ];
  });
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}

function number(value: number | null): string {
  return value === null || !Number.isFinite(value) ? '' : String(value);
}

function csvCell(cell: string): string {
  return /[",\n\r]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}
