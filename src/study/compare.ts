/**
 * What-if comparisons: the same study (world, workloads, span) under several configurations with the
 * same seed. Workload sessions depend on the seed alone (common random numbers), so differences in
 * the results come from the configurations, not from luck. Prints a side-by-side table with deltas.
 */
import type { FleetMetrics } from '../projection/metrics.js';
import {
  deltaTableColumns,
  differenceSign,
  FIGURES,
  figureOf,
  formatFigure,
  textTable,
} from './figures.js';
import { runStudy } from './runStudy.js';
import type { Configuration, Study } from './study.js';

/** The results of one configuration. */
export interface ComparisonRow {
  readonly name: string;
  readonly fleet: FleetMetrics;
}

/** The results of a comparison, in configuration order (the first is the baseline). */
export interface Comparison {
  readonly rows: readonly ComparisonRow[];
}

/** Runs `study` under each configuration (at least one) and collects the fleet metrics. */
export function compare<P>(
  study: Study<P>,
  configurations: readonly Configuration<P>[],
): Comparison {
  if (configurations.length === 0) throw new RangeError('compare: give at least one configuration');
  const names = new Set(configurations.map((c) => c.name));
  if (names.size !== configurations.length)
    throw new RangeError('compare: configuration names must be unique');
  const rows = configurations.map((configuration) => ({
    name: configuration.name,
    fleet: runStudy(study, configuration),
  }));
  return { rows };
}

/**
 * A plain-text table: one column per configuration, each after the first with its delta to the
 * first beside it, in a column of its own (headed `(Δ)`), so the values line up and so do the deltas.
 */
export function comparisonTable(comparison: Comparison): string {
  const [baseline, ...others] = comparison.rows;
  if (baseline === undefined) return '';
  const header = ['', baseline.name, ...others.flatMap((r) => [r.name, '(Δ)'])];
  const lines = FIGURES.map((figure) => {
    const base = figureOf(figure, baseline.fleet);
    return [
      figure.label,
      formatFigure(base, figure.digits),
      ...others.flatMap((row) => {
        const value = figureOf(figure, row.fleet);
        const text = formatFigure(value, figure.digits);
        if (value === undefined || base === undefined) return [text, ''];
        return [text, `(${delta(value, base, figure.digits)})`];
      }),
    ];
  });
  return textTable([header, ...lines], deltaTableColumns(others.length));
}

function delta(value: number, base: number, digits: number): string {
  const difference = value - base;
  const sign = differenceSign(difference, digits);
  const percent = base === 0 ? '' : `, ${sign}${Math.abs((difference / base) * 100).toFixed(0)}%`;
  return `${sign}${formatFigure(Math.abs(difference), digits)}${percent}`;
}
