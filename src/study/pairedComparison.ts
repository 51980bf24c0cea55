/**
 * A comparison over several seeds, paired: every configuration runs every seed, and a seed's
 * sessions are the same under each (common random numbers), so the difference a configuration
 * makes is measured seed by seed against the baseline (the first) and summarised as the mean of
 * those differences with its 95% interval. Pairing takes the luck that all configurations share out
 * of the interval, which is then much narrower than comparing two means would give.
 */
import {
  deltaTableColumns,
  differenceSign,
  FIGURES,
  figureOf,
  formatFigure,
  textTable,
  type Figure,
} from './figures.js';
import { meanInterval, type MeanInterval } from './interval.js';
import { withInterval } from './sweepOutput.js';
import type { SweepResult } from './sweepResult.js';

/** One configuration of a paired comparison. */
export interface PairedArm {
  readonly name: string;
  /** Per figure key: its mean and 95% interval across the seeds. */
  readonly summary: Readonly<Record<string, MeanInterval>>;
  /**
   * Per figure key: the mean of this configuration's difference from the baseline, seed by seed,
   * with its 95% interval (over the seeds where both have the figure). Empty for the baseline.
   */
  readonly difference: Readonly<Record<string, MeanInterval>>;
}

/** Every configuration against the baseline (the first), over the same seeds. */
export interface PairedComparison {
  readonly seeds: readonly number[];
  readonly arms: readonly PairedArm[];
}

/**
 * The paired comparison of a sweep of configurations (each point a configuration, the first the
 * baseline, every point run with the same seeds).
 */
export function pairedComparison(result: SweepResult): PairedComparison {
  const [baseline] = result.points;
  const arms = result.points.map((point, p) => ({
    name: point.name,
    summary: point.summary,
    difference:
      p === 0 || baseline === undefined
        ? {}
        : Object.fromEntries(
            FIGURES.map((figure) => [
              figure.key,
              meanInterval(
                point.runs.flatMap((run, s) => {
                  const base = baseline.runs[s];
                  const value = figureOf(figure, run.fleet);
                  const from = base === undefined ? undefined : figureOf(figure, base.fleet);
                  return value === undefined || from === undefined ? [] : [value - from];
                }),
              ),
            ]),
          ),
  }));
  return { seeds: result.seeds, arms };
}

/**
 * A plain-text table: one column per configuration, each figure's mean ±the half-width of its 95%
 * interval, and after the first each configuration's mean paired difference ±its half-width, in a
 * column of its own beside it (headed `(Δ)`).
 */
export function pairedTable(paired: PairedComparison): string {
  const [first, ...others] = paired.arms;
  const header = ['', first?.name ?? '', ...others.flatMap((arm) => [arm.name, '(Δ)'])];
  const own = (arm: PairedArm, figure: Figure) => {
    const summary = arm.summary[figure.key];
    return summary === undefined ? '–' : withInterval(summary, figure.digits);
  };
  const lines = FIGURES.map((figure) => {
    const base = first?.summary[figure.key];
    return [
      figure.label,
      first === undefined ? '' : own(first, figure),
      ...others.flatMap((arm) => {
        const difference = arm.difference[figure.key];
        const delta =
          difference === undefined || difference.n === 0
            ? ''
            : `(${signedDifference(difference, base, figure)})`;
        return [own(arm, figure), delta];
      }),
    ];
  });
  return textTable([header, ...lines], deltaTableColumns(others.length));
}

/**
 * `−3.5 ±0.2, −34%`: a mean difference with its sign, the half-width of its interval when it has
 * one, and its share of the baseline's mean.
 */
export function signedDifference(
  difference: MeanInterval,
  baseline: MeanInterval | undefined,
  figure: Figure,
): string {
  const sign = differenceSign(difference.mean, figure.digits);
  const size = formatFigure(Math.abs(difference.mean), figure.digits);
  const half =
    difference.high === null
      ? ''
      : ` ±${formatFigure(difference.high - difference.mean, figure.digits)}`;
  const share =
    baseline === undefined || baseline.n === 0 || baseline.mean === 0
      ? ''
      : `, ${sign}${Math.abs((difference.mean / baseline.mean) * 100).toFixed(0)}%`;
  return `${sign}${size}${half}${share}`;
}

/** Whether an interval leaves out 0: the difference is larger than the seeds' luck explains. */
export function clearOfZero(difference: MeanInterval): boolean {
  return (
    difference.low !== null &&
    difference.high !== null &&
    (difference.low > 0 || difference.high < 0)
  );
}
