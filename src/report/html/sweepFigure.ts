/**
 * One figure of a sweep as a line chart over the swept parameter: the mean across seeds as a line,
 * its 95% interval as a band, each seed's value as a dot. The x axis is the parameter's values when
 * one number was swept in increasing order with no value named; otherwise (several parameters,
 * words, numbers out of order, or a value the study names, such as -1 for "never") the points in
 * the order listed, named by their values (or configurations): a value listed out of order is a
 * name, not a place on a scale. Axis titles carry the study's units (`suspendTimeout (s)`).
 */
import { figureOf, formatFigure, type Figure } from '../../study/figures.js';
import { withInterval } from '../../study/sweepOutput.js';
import type { SweepPoint, SweepResult } from '../../study/sweepResult.js';
import { lineChart, type Band, type Series } from './lineChart.js';
import { categoryAxis, numberAxis, type XAxisOf } from './xAxis.js';

/** Where a sweep's points lie: the axis, each point's x (in result order), and what x is. */
export interface SweepX {
  readonly axis: XAxisOf;
  readonly xs: readonly number[];
  readonly title: string;
  /** Whether the points lie on one scale (one number swept upward), so a line may join them. */
  readonly scaled: boolean;
}

/**
 * The x axis of `result`: a number axis for one parameter swept over increasing numbers, else named
 * points in order.
 */
export function sweepX(result: SweepResult): SweepX {
  const values = result.points.map((point) =>
    result.parameters.map((name) => paramsOf(point)[name]),
  );
  const numbers = values.map(([value]) => value);
  const label = (name: string) => result.paramLabels?.[name];
  const named = (name: string, value: unknown) => label(name)?.values?.[String(value)];
  const only = result.parameters[0] as string;
  if (
    result.parameters.length === 1 &&
    numbers.every(
      (value, i) =>
        typeof value === 'number' &&
        named(only, value) === undefined &&
        (i === 0 || value > (numbers[i - 1] as number)),
    )
  ) {
    const xs = numbers as number[];
    const title = withUnit(only, label(only)?.unit);
    return { axis: numberAxis(xs, title), xs, title, scaled: true };
  }
  const hasParameters = result.parameters.length > 0;
  const title = hasParameters
    ? result.parameters.map((name) => withUnit(name, label(name)?.unit)).join(' · ')
    : 'configuration';
  const labels = result.points.map((point, i) =>
    hasParameters
      ? (values[i] ?? [])
          .map((value, p) => {
            const name = result.parameters[p] as string;
            return named(name, value) ?? String(value);
          })
          .join(' · ')
      : point.name,
  );
  return {
    axis: categoryAxis(labels, title),
    xs: labels.map((_, i) => i),
    title,
    scaled: false,
  };
}

/** The chart of `figure` over the sweep's points. */
export function sweepFigureChart(result: SweepResult, figure: Figure, x: SweepX): string {
  const order = result.points.map((point, i) => ({ point, x: x.xs[i] as number }));
  order.sort((a, b) => a.x - b.x);
  const seeds = result.seeds.length;
  const summaries = order.map(({ point, x: at }) => ({
    at,
    point,
    value: point.summary[figure.key],
  }));
  const measured = summaries.filter(({ value }) => value !== undefined && value.n > 0);
  const mean: Series = {
    name: `mean of ${seeds} seed${seeds === 1 ? '' : 's'}`,
    className: 's-arm-0',
    // Points named, not on one scale (-1 for "never" after 1800): marked, not joined.
    join: x.scaled ? 'line' : 'markers',
    points: measured.map(({ at, value }) => [at, value?.mean ?? 0] as const),
    tips: measured.map(
      ({ point, value }) =>
        `${point.name}: ${value === undefined ? '–' : withInterval(value, figure.digits)}${value !== undefined && value.n < seeds ? ` (${value.n} of ${seeds} seeds have it)` : ''}`,
    ),
  };
  const runs = order.flatMap(({ point, x: at }) =>
    point.runs.flatMap((run) => {
      const value = figureOf(figure, run.fleet);
      return value === undefined
        ? []
        : [
            {
              at,
              value,
              tip: `${point.name}, seed ${run.seed}: ${formatFigure(value, figure.digits)}`,
            },
          ];
    }),
  );
  const dots: Series = {
    name: 'each seed',
    className: 's-seed',
    join: 'dots',
    points: runs.map(({ at, value }) => [at, value] as const),
    tips: runs.map(({ tip }) => tip),
  };
  const band: Band = {
    name: '95% interval',
    className: 's-arm-0',
    apart: !x.scaled,
    points: summaries.map(
      ({ at, value }) => [at, value?.low ?? null, value?.high ?? null] as const,
    ),
  };
  return lineChart(`${figure.label} over ${x.title}`, figure.label, [dots, mean], x.axis, {
    wholeNumbers: figure.digits === 0,
    ...(seeds > 1 ? { bands: [band] } : {}),
  });
}

/** `name (unit)`, or the name alone. */
function withUnit(name: string, unit: string | undefined): string {
  return unit === undefined || unit === '' ? name : `${name} (${unit})`;
}

function paramsOf(point: SweepPoint): Readonly<Record<string, unknown>> {
  return typeof point.params === 'object' && point.params !== null
    ? (point.params as Readonly<Record<string, unknown>>)
    : {};
}
