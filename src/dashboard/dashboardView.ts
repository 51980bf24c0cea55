/**
 * What the dashboard draws at one moment, drawn by the HTML report's own renderers: the lanes on
 * screen (a window of the computes; the ones off screen summed up by state), total CU, activity,
 * operations and the metrics table, over the run from its start to now. The projections of the log
 * are made once per change and shared by every window and project asked for.
 */
import type { ViewAnswer } from '../browser/wire.js';
import type { SimEvent } from '../model/events.js';
import type { SimState } from '../model/state.js';
import type { ComputeLane } from '../projection/computeLanes.js';
import type { FleetMetrics } from '../projection/metrics.js';
import {
  activityFigure,
  type ChartBuckets,
  computesFigure,
  cuFigure,
  metricsTable,
  operationsFigure,
} from '../report/html/reportCharts.js';
import { FigureProjection } from '../report/html/figureProjection.js';

/** Which lanes are on screen, and whose. */
export interface ViewWindow {
  /** Index of the first lane on screen, in creation order (of the project's, with `project`). */
  readonly first: number;
  /** Lanes on screen. */
  readonly count: number;
  /** Only this project's computes (default: every project's). */
  readonly project?: string;
}

/**
 * The dashboard at one moment: figures as SVG/HTML text, and what the page's controls need, as the
 * page's script reads it.
 */
export type DashboardView = ViewAnswer;

/** What a view is drawn from: the projections of the whole log, made once per change of it. */
export interface RunProjections {
  readonly now: number;
  readonly start: number;
  readonly until: number;
  readonly events: number;
  readonly lanes: readonly ComputeLane[];
  readonly fleet: FleetMetrics;
  readonly buckets: ChartBuckets;
}

/** The projections of `log` at virtual time `now`, in one go. */
export function runProjections(
  log: Iterable<SimEvent> & {
    readonly length: number;
    get(seq: number): SimEvent | undefined;
  },
  now: number,
): RunProjections {
  const projector = new RunProjector(log.get(0)?.at ?? now, now, log.length);
  for (const event of log) projector.apply(event);
  return projector.projections();
}

/**
 * The projections of a log's first `events` events at virtual time `now`, fed an event at a time
 * (so `serve` can make them in slices), then asked once for `projections`.
 */
export class RunProjector {
  readonly #figures: FigureProjection;

  /** Projections of `events` events from `start` (the first event's time) to `now`. */
  constructor(
    readonly start: number,
    readonly now: number,
    readonly events: number,
  ) {
    this.#figures = new FigureProjection(start, Math.max(now, start + 1_000));
  }

  /** Takes the next event of the log. */
  apply(event: SimEvent): void {
    this.#figures.apply(event);
  }

  /** The projections of the events fed. */
  projections(): RunProjections {
    const { fleet, buckets, lanes } = this.#figures.figures();
    const { start, now, events } = this;
    return { now, start, until: this.#figures.until, events, lanes, fleet, buckets };
  }
}

/** The view of a run from its projections, its state (for the project names) and a window. */
export function dashboardView(
  run: RunProjections,
  state: SimState,
  window: ViewWindow,
): DashboardView {
  const { start, until, fleet, buckets } = run;
  const lanes =
    window.project === undefined
      ? run.lanes
      : run.lanes.filter((l) => l.projectId === window.project);
  const first = Math.max(0, Math.min(window.first, Math.max(0, lanes.length - window.count)));
  const shown = lanes.slice(first, first + window.count);
  const offScreen = [...lanes.slice(0, first), ...lanes.slice(first + window.count)];
  return {
    now: run.now,
    start,
    events: run.events,
    lanes: {
      first,
      count: shown.length,
      total: lanes.length,
      figure: computesFigure(shown, start, until, {
        max: shown.length,
        note: offScreen.length === 0 ? '' : offScreenNote(offScreen, first, shown.length, until),
      }),
    },
    cu: cuFigure(buckets, start, until),
    activity: activityFigure(buckets, start, until),
    operations: operationsFigure(fleet),
    metrics: metricsTable(fleet),
    projects: Object.values(state.projects).map((p) => ({ id: p.id, name: p.name })),
  };
}

/** `computes 1-12 of 340 drawn; the other 328: 40 active, 280 idle, 8 deleted`. */
function offScreenNote(
  rest: readonly ComputeLane[],
  first: number,
  shown: number,
  until: number,
): string {
  const counts = new Map<string, number>();
  for (const lane of rest) {
    const last = lane.spans.at(-1);
    const state = last === undefined ? 'init' : last.to < until ? 'deleted' : last.state;
    counts.set(state, (counts.get(state) ?? 0) + 1);
  }
  const total = rest.length + shown;
  const by = [...counts]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([state, n]) => `${n} ${state}`)
    .join(', ');
  return `computes ${first + 1}-${first + shown} of ${total} drawn; the other ${rest.length}: ${by}`;
}
