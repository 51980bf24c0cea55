/**
 * What the dashboard page reads from the server: the event stream's messages, the figures on
 * screen (`GET /_sim/view`) and the control routes' answers. The server draws its views as
 * `ViewAnswer` (src/dashboard/dashboardView.ts); test/browser/wire.test.ts checks its feed items.
 */

/** A line of the feed: an event or an answered request from the server, or a note of the page. */
export interface FeedLine {
  readonly kind: 'event' | 'request' | 'note';
  /** Virtual time, epoch ms. */
  readonly at: number;
  /** The event's type, or the request's status as text (`201`); notes have none. */
  readonly type?: string;
  /** The project it concerns, when it concerns one. */
  readonly projectId?: string;
  readonly text: string;
}

/** The `clock` message: the virtual time, how the clock runs, and the log's length. */
export interface ClockNews {
  readonly now: number;
  readonly mode: string;
  readonly events: number;
}

/** The `skipped` message: what a stream that started far behind was not sent. */
export interface SkippedNews {
  readonly at: number;
  readonly events: number;
  readonly requests: number;
}

/** The figures on screen and what the page's controls need (`GET /_sim/view`). */
export interface ViewAnswer {
  readonly now: number;
  readonly start: number;
  readonly events: number;
  readonly lanes: {
    readonly first: number;
    readonly count: number;
    readonly total: number;
    /** SVG. */
    readonly figure: string;
  };
  /** The figures below the lanes, as SVG or HTML. */
  readonly cu: string;
  readonly activity: string;
  readonly operations: string;
  readonly metrics: string;
  readonly projects: readonly { readonly id: string; readonly name: string }[];
}

/** The answer of a control route (`POST /_sim/…`), or an error's: the fields the page reads. */
export interface ControlAnswer {
  readonly now_ms?: number;
  readonly mode?: string;
  readonly message?: string;
}
