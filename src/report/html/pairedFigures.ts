/**
 * The figures of a comparison as an HTML table: per configuration, each figure's mean (±the
 * half-width of its 95% interval across seeds) and, after the baseline, the mean paired difference
 * from the baseline with its interval, in bold where the interval leaves out 0.
 */
import { FIGURES } from '../../study/figures.js';
import {
  clearOfZero,
  signedDifference,
  type PairedComparison,
} from '../../study/pairedComparison.js';
import { withInterval } from '../../study/sweepOutput.js';
import { escapeXml } from './escapeXml.js';

/** The table of `paired`: a row per figure, a column per configuration and one per difference. */
export function pairedFiguresTable(paired: PairedComparison): string {
  const [baseline, ...others] = paired.arms;
  if (baseline === undefined) return '';
  const names = `<tr><th scope="col"></th><th scope="col">${escapeXml(baseline.name)}</th>${others.map((arm) => `<th scope="colgroup" colspan="2">${escapeXml(arm.name)}</th>`).join('')}</tr>`;
  const kinds = `<tr><th scope="col"></th><th scope="col">mean</th>${others.map(() => '<th scope="col">mean</th><th scope="col">Δ</th>').join('')}</tr>`;
  const rows = FIGURES.map((figure) => {
    const base = baseline.summary[figure.key];
    const cells = [base, ...others.map((arm) => arm.summary[figure.key])].map((value, i) => {
      const own = `<td>${escapeXml(value === undefined ? '–' : withInterval(value, figure.digits))}</td>`;
      if (i === 0) return own;
      const difference = others[i - 1]?.difference[figure.key];
      if (difference === undefined || difference.n === 0) return `${own}<td class="delta">–</td>`;
      const clear = clearOfZero(difference) ? ' clear' : '';
      return `${own}<td class="delta${clear}">${escapeXml(signedDifference(difference, base, figure))}</td>`;
    });
    return `<tr><th scope="row">${escapeXml(figure.label)}</th>${cells.join('')}</tr>`;
  }).join('');
  return `<table class="metrics paired"><thead>${names}${kinds}</thead><tbody>${rows}</tbody></table>`;
}
