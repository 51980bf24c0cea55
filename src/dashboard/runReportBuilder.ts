/**
 * The report of the run so far of `serve`, built an event at a time: the report's figures
 * (`FigureProjection`) and its narrated timeline are fed as the events come, and only the first
 * timeline lines are kept (the report lists no more), so the server can build it in slices between
 * other requests. The page is the one `computesim run --html` renders for the same run.
 */
import { createNarrator, type Narrator } from '../projection/narrator.js';
import {
  MAX_TIMELINE_LINES,
  renderHtmlReport,
  type ReportedRun,
} from '../report/html/htmlReport.js';
import { FigureProjection } from '../report/html/figureProjection.js';
import type { SimEvent } from '../model/events.js';
import type { TimelineEntry } from '../scenario/timelineEntry.js';
import type { RequestRecord } from './feedItem.js';

/** A request with where it falls in the log: after the first `position` events. */
export interface PlacedRequest extends RequestRecord {
  readonly position: number;
}

/** What the report is of: fixed when it is asked for, so later events do not change it. */
export interface ReportScope {
  readonly seed: number;
  /** Virtual time of the first event (or of now, with none). */
  readonly start: number;
  /** Virtual time when the report was asked for. */
  readonly end: number;
  /** Events the report covers: the first `events` of the log. */
  readonly events: number;
  /** The requests answered so far, in the order they were placed. */
  readonly requests: readonly PlacedRequest[];
}

/** Builds one report: `apply` it the events of its scope in order, then `render` it once. */
export class RunReportBuilder {
  readonly #scope: ReportScope;
  readonly #narrate: Narrator = createNarrator();
  readonly #figures: FigureProjection;
  readonly #timeline: TimelineEntry[] = [];
  #lines = 0;
  #nextRequest = 0;

  constructor(scope: ReportScope) {
    this.#scope = scope;
    this.#figures = new FigureProjection(scope.start, Math.max(scope.end, scope.start + 1_000));
  }

  /** Takes the next event of the log. */
  apply(event: SimEvent): void {
    this.#placeUpTo(event.seq);
    this.#figures.apply(event);
    const text = this.#narrate(event);
    if (text !== undefined) this.#line({ at: event.at, kind: 'event', text });
  }

  /** The report's HTML, from the events fed. */
  render(): string {
    this.#placeUpTo(Infinity);
    const scope = this.#scope;
    const run: ReportedRun = {
      name: 'computesim serve: the run so far',
      description:
        'What the served simulation did, from its first event to the moment of download.',
      seed: scope.seed,
      start: scope.start,
      end: scope.end,
      passed: true,
      checks: 0,
      events: scope.events,
      timeline: this.#timeline,
      timelineLength: this.#lines,
    };
    return renderHtmlReport(run, this.#figures.figures(), { verdict: false });
  }

  /** Puts the requests placed at or before `position` into the timeline. */
  #placeUpTo(position: number): void {
    const requests = this.#scope.requests;
    for (; this.#nextRequest < requests.length; this.#nextRequest++) {
      const r = requests[this.#nextRequest] as PlacedRequest;
      if (r.position > position) return;
      this.#line({ at: r.at, kind: 'request', text: `${r.method} ${r.path}` });
      this.#line({ at: r.at, kind: 'response', text: `→ ${r.status}`, status: r.status });
    }
  }

  #line(entry: TimelineEntry): void {
    if (this.#lines++ < MAX_TIMELINE_LINES) this.#timeline.push(entry);
  }
}
