/**
 * A progress bar for long commands, drawn with cli-progress on a terminal only: piped or captured
 * output never sees it.
 */
import { SingleBar } from 'cli-progress';

/**
 * Progress of a long command: `update(done, total)` as work completes, `stop()` at the end (a second
 * `stop()` does nothing).
 */
export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

const SILENT: Progress = { update: () => undefined, stop: () => undefined };

/**
 * A bar labelled `label` on `stream` when it is a terminal, else a progress that shows nothing.
 * `counted` names what `done` and `total` count (`runs`); without it the bar shows a percentage.
 */
export function progressBar(
  label: string,
  stream: NodeJS.WriteStream | undefined,
  counted?: string,
): Progress {
  if (stream?.isTTY !== true) return SILENT;
  const amount = counted === undefined ? '{percentage}%' : `{value}/{total} ${counted}`;
  const bar = new SingleBar({
    stream,
    format: `${label} |{bar}| ${amount} · {duration_formatted} elapsed · ETA {eta_formatted}`,
    barsize: 30,
    hideCursor: true,
    clearOnComplete: true,
    etaBuffer: 20,
  });
  let started = false;
  // The bar hides the cursor and line wrapping: give them back if the user interrupts.
  const interrupted = (signal: NodeJS.Signals) => {
    bar.stop();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, 0);
        started = true;
        process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
      }
      bar.update(done);
    },
    stop() {
      if (!started) return;
      started = false;
      bar.stop();
      process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
    },
  };
}
