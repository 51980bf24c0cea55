/**
 * The virtual clock in the page's header: the time, the time since the run's start, and how the
 * clock runs (the speed menu follows it, growing an entry for a speed it does not offer).
 */
import type { PageElements } from './pageElements.js';
import { clockText, sinceStart } from './timeText.js';

/** The clock as the page shows it. */
export class ClockView {
  /** When the run started (unknown until the figures came, and again after a reset). */
  start: number | undefined;
  /** How the clock runs: `manual`, `realtime`, `60x`… ('' until told). */
  mode = '';

  constructor(readonly page: Pick<PageElements, 'clock' | 'since' | 'mode' | 'speed'>) {}

  /** Shows the clock at `now`, running as `mode` (as before when not told). */
  show(now: number, mode?: string): void {
    const { clock, since, speed } = this.page;
    if (mode) this.mode = mode;
    clock.textContent = clockText(now);
    clock.dataset['now'] = String(now);
    since.textContent = this.start === undefined ? '' : sinceStart(now - this.start);
    this.page.mode.textContent = this.mode;
    if (this.mode && speed.value !== this.mode) {
      if (![...speed.options].some((option) => option.value === this.mode))
        speed.add(new Option(this.mode, this.mode));
      speed.value = this.mode;
    }
  }
}
