/**
 * The feed the page keeps: the newest lines first, a bounded number of them, and which of them the
 * project filter shows (notes of the page always).
 */
import type { FeedLine } from './wire.js';

/** Lines kept, so a change of the filter has some to show. */
export const LINES_KEPT = 500;
/** Lines on screen at most. */
export const LINES_SHOWN = 200;

/** The lines of the feed, newest first, and the project they are shown for. */
export class FeedLines {
  #lines: FeedLine[] = [];
  /** Only this project's lines are shown ('': every project's). */
  project = '';

  /** Adds `line` as the newest; whether the filter shows it. */
  add(line: FeedLine): boolean {
    this.#lines.unshift(line);
    if (this.#lines.length > LINES_KEPT) this.#lines.length = LINES_KEPT;
    return this.shows(line);
  }

  /** Forgets every line (the server's simulation was replaced). */
  clear(): void {
    this.#lines = [];
  }

  /** Whether the filter shows `line`. */
  shows(line: FeedLine): boolean {
    return this.project === '' || line.projectId === this.project || line.kind === 'note';
  }

  /** The lines on screen, newest first. */
  shown(): FeedLine[] {
    return this.#lines.filter((line) => this.shows(line)).slice(0, LINES_SHOWN);
  }
}

/** The class of a line's element: its kind, and `failed` for a request answered with an error. */
export function lineClass(line: FeedLine): string {
  return line.kind + (line.kind === 'request' && Number(line.type) >= 400 ? ' failed' : '');
}
