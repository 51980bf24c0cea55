/**
 * A timeline as TypeScript source: the object literal a counterexample prints, which a test pastes
 * and passes back (`property.replay(…)`) to run the same world again.
 */
import type { Timeline } from './timeline.js';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A plain value (object, array, string, number, boolean) as a one-line literal. */
function valueLiteral(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(valueLiteral).join(', ')}]`;
  if (typeof value === 'string')
    return `'${JSON.stringify(value).slice(1, -1).replace(/'/g, "\\'")}'`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    if (entries.length === 0) return '{}';
    const fields = entries.map(
      ([key, item]) => `${IDENTIFIER.test(key) ? key : `'${key}'`}: ${valueLiteral(item)}`,
    );
    return `{ ${fields.join(', ')} }`;
  }
  return String(value);
}

/**
 * `timeline` as an object literal spread over lines, indented by `indent`: its seed, its faults, and
 * one step a line (an empty list for none).
 */
export function timelineLiteral(timeline: Timeline, indent = ''): string {
  const inner = `${indent}  `;
  const steps =
    timeline.steps.length === 0
      ? '[]'
      : `[\n${timeline.steps.map((step) => `${inner}  ${valueLiteral(step)},`).join('\n')}\n${inner}]`;
  return [
    '{',
    `${inner}seed: ${timeline.seed},`,
    `${inner}faults: ${valueLiteral(timeline.faults)},`,
    `${inner}steps: ${steps},`,
    `${indent}}`,
  ].join('\n');
}
