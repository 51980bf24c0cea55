/**
 * A scenario's timeline as terminal text: virtual time since the start, then the line; simulation
 * events indented under the step that caused them. Colours only when asked (a terminal).
 */
import { styleText } from 'node:util';
import type { TimelineEntry, TimelineKind } from '../scenario/timelineEntry.js';
import { relativeClock } from '../projection/timelineLine.js';

type Style = Parameters<typeof styleText>[0];

const STYLES: Readonly<Record<TimelineKind, Style>> = {
  event: 'gray',
  request: 'cyan',
  response: 'green',
  connect: 'cyan',
  poll: 'white',
  note: 'bold',
  check: 'green',
  failure: ['red', 'bold'],
};

/** One timeline line: `+00:05:06.575    · compute ep-… is idle`. */
export function timelineText(entry: TimelineEntry, start: number, color = false): string {
  const text = entry.kind === 'event' ? `  · ${entry.text}` : entry.text;
  const style: Style =
    entry.kind === 'response' && (entry.status ?? 0) >= 400 ? 'yellow' : STYLES[entry.kind];
  const clock = relativeClock(entry.at - start);
  return color ? `${styleText('dim', clock)}  ${styleText(style, text)}` : `${clock}  ${text}`;
}
