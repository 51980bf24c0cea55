/** The page's header says how things go: a line of status, and whether the stream is live. */
import type { PageElements } from './pageElements.js';

/** The status line and the link light. */
export class StatusView {
  constructor(readonly page: Pick<PageElements, 'status' | 'link'>) {}

  /** Shows `text` in the status line, as a problem or as a remark. */
  say(text: string, problem = false): void {
    this.page.status.textContent = text;
    this.page.status.className = problem ? 'problem' : 'muted';
  }

  /** Shows the stream live, or being connected again. */
  link(how: 'up' | 'down'): void {
    this.page.link.className = `link ${how}`;
    this.page.link.title = how === 'up' ? 'live' : 'reconnecting…';
  }
}
