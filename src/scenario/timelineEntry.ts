/**
 * One line of a scenario's timeline: when, what kind of thing, and what it says. Renderers (text,
 * JSON, HTML) read these; the runner writes them in the order things happened.
 */

/** The kinds of timeline lines. */
export const TIMELINE_KINDS = [
  'event',
  'request',
  'response',
  'connect',
  'poll',
  'note',
  'check',
  'failure',
] as const;

/** The kind of a timeline line: a simulation event, or something the script did. */
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

/** One line of a timeline. */
export interface TimelineEntry {
  /** Virtual time, epoch ms. */
  readonly at: number;
  readonly kind: TimelineKind;
  readonly text: string;
  /** For responses: the HTTP-style status. */
  readonly status?: number;
}
