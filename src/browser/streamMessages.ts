/** What each message of the event stream does to the page. */
import type { ClockNews, FeedLine, SkippedNews } from './wire.js';

/** The changes a message makes. */
export interface PageUpdates {
  /** A line for the feed, newer than every one before. */
  addLine(line: FeedLine): void;
  /** Where the clock is and how long the log (the figures are then asked for again). */
  clock(news: ClockNews): void;
  /** The server serves another simulation: the feed starts again. */
  reset(): void;
}

/** Applies the message `event` with `data` (parsed JSON) to the page; unknown events do nothing. */
export function applyMessage(event: string, data: unknown, page: PageUpdates): void {
  if (event === 'feed') {
    for (const line of data as FeedLine[]) page.addLine(line);
  } else if (event === 'clock') {
    page.clock(data as ClockNews);
  } else if (event === 'reset') {
    page.reset();
  } else if (event === 'skipped') {
    page.addLine(skippedNote(data as SkippedNews));
  }
}

/** The note that stands for what a stream that started far behind was not sent. */
function skippedNote(skipped: SkippedNews): FeedLine {
  return {
    kind: 'note',
    at: skipped.at,
    text: `… ${skipped.events} earlier events and ${skipped.requests} requests not sent (the report has them all)`,
  };
}
