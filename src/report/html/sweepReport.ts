/**
 * The HTML report of `sweep`: one chart per figure over the swept parameter (the mean across seeds,
 * its 95% interval as a band, each seed as a dot), then the grid as a table of means ±half their
 * interval. Drawn from the sweep's results alone, so a merged or queued sweep draws the same.
 */
import { formatDuration, parseDuration } from '../../core/duration.js';
import { DEFAULT_TABLE_FIGURES, figuresByKey, withInterval } from '../../study/sweepOutput.js';
import type { SweepResult } from '../../study/sweepResult.js';
import { escapeXml } from './escapeXml.js';
import { figureSection } from './reportCharts.js';
import { reportPage } from './reportPage.js';
import { sweepFigureChart, sweepX } from './sweepFigure.js';

/** The HTML report of `result`, charting `figureKeys` (the table's figures by default). */
export function sweepReport(
  result: SweepResult,
  figureKeys: readonly string[] = DEFAULT_TABLE_FIGURES,
): string {
  const figures = figuresByKey(figureKeys);
  const x = sweepX(result);
  const seeds = result.seeds.length;
  const what =
    seeds === 1
      ? `one seed (${result.seeds[0]}): each point is one run, with no interval`
      : `the mean of ${seeds} seeds (line), its 95% interval (band) and each seed (dots)`;
  const charts = figures.map((figure) =>
    figureSection(figure.label, `Per ${x.title}: ${what}.`, sweepFigureChart(result, figure, x)),
  );
  const head = `<tr><th scope="col">${result.parameters.length === 0 ? 'configuration' : 'point'}</th>${figures.map((f) => `<th scope="col">${escapeXml(f.label)}</th>`).join('')}</tr>`;
  const rows = result.points
    .map((point) => {
      const cells = figures.map((f) => {
        const value = point.summary[f.key];
        return `<td>${escapeXml(value === undefined ? '–' : withInterval(value, f.digits))}</td>`;
      });
      return `<tr><th scope="row">${escapeXml(point.name)}</th>${cells.join('')}</tr>`;
    })
    .join('');
  const grid = `<section><h2>Grid</h2><p class="caption">${escapeXml(`Every point: the mean of each figure ±half its 95% interval across the ${seeds === 1 ? 'one seed' : `${seeds} seeds`} (the JSON and CSV outputs have every figure).`)}</p><figure><table class="metrics sweep-grid"><thead>${head}</thead><tbody>${rows}</tbody></table></figure></section>`;
  return reportPage({
    title: `computesim: sweep ${result.study}`,
    heading: `Sweep: ${result.study}`,
    about: result.description,
    meta: `${result.points.length} point${result.points.length === 1 ? '' : 's'} × ${seeds} seed${seeds === 1 ? '' : 's'} (${result.seeds.join(', ')}) · ${formatDuration(parseDuration(result.duration))} of virtual time each`,
    main: [...charts, grid].join('\n'),
  });
}
