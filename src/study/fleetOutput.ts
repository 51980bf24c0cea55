/**
 * A fleet's results as people read them: what ran, every headline figure, and how exact they are
 * (sums and counts exactly, percentiles within the histogram's stated bound).
 */
import { formatDuration, parseDuration } from '../core/duration.js';
import { FIGURES, figureOf, formatFigure, textTable } from './figures.js';
import type { FleetResult } from './fleetRun.js';

/** The lines `computesim fleet` prints for a result (the same however the fleet was split). */
export function fleetLines(result: FleetResult): string[] {
  const rows = FIGURES.map((figure) => [
    figure.label,
    formatFigure(figureOf(figure, result.metrics), figure.digits),
  ]);
  return [
    `${result.fleet}: ${result.description ?? ''}`.replace(/: $/, ''),
    `${result.projects.toLocaleString('en-US')} projects, seed ${result.seed}, ` +
      `${formatDuration(parseDuration(result.duration))} of virtual time each`,
    '',
    textTable([['', 'fleet'], ...rows]),
    '',
    `Sums and counts are exact; percentiles come from a mergeable histogram and are at most ` +
      `${(result.percentileRelativeError * 100).toFixed(2)}% above the exact values.`,
  ];
}
