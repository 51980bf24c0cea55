/**
 * The header's controls: the clock's buttons and speed menu (each one a `_sim` control route) and
 * the report's download.
 */
import { Unauthorized, type ApiClient } from './apiClient.js';
import type { StatusView } from './statusView.js';
import type { ControlAnswer } from './wire.js';

/** What the controls change on the page once the server answered. */
export interface ControlEffects {
  /** The clock moved to `now`, running as `mode` when told. */
  clock(now: number, mode?: string): void;
  /** The figures should be drawn again. */
  redraw(): void;
}

/** Sends the controls' requests and shows their answers. */
export class Controls {
  constructor(
    readonly api: ApiClient,
    readonly status: StatusView,
    readonly effects: ControlEffects,
  ) {}

  /** `POST /_sim{path}` with `body`: shows where the clock is after it, or what went wrong. */
  async send(path: string, body?: unknown): Promise<void> {
    try {
      const response = await this.api.call('POST', `/_sim${path}`, body);
      const answer = (await response.json().catch(() => ({}))) as ControlAnswer;
      if (!response.ok) return this.status.say(answer.message || `HTTP ${response.status}`, true);
      if (answer.now_ms !== undefined) this.effects.clock(answer.now_ms, answer.mode);
      this.status.say('');
      this.effects.redraw();
    } catch (error) {
      this.#failed(error);
    }
  }

  /** Downloads the report of the run so far (`GET /_sim/report`) as a file. */
  async download(): Promise<void> {
    try {
      const response = await this.api.call('GET', '/_sim/report');
      if (!response.ok)
        return this.status.say(`cannot download the report: HTTP ${response.status}`, true);
      const url = URL.createObjectURL(await response.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = 'computesim-report.html';
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      this.#failed(error);
    }
  }

  #failed(error: unknown): void {
    if (!(error instanceof Unauthorized)) this.status.say(errorText(error), true);
  }
}

/** An error as the status line tells it. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message || String(error) : String(error);
}
