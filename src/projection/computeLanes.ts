/**
 * Per compute, what a lane chart draws: the spans it spent in each state (init, active, idle) and
 * the operations on it, as a pure projection of the event log.
 */
import type { SimEvent } from '../model/events.js';
import { ComputeActivity, type StateSpan } from './computeActivity.js';
import { OperationOutcomes } from './operationOutcomes.js';

/** An operation mark on a lane. */
export interface OperationMark {
  readonly at: number;
  readonly action: string;
  /** Final status (`unfinished` if it had not ended by the end of the log). */
  readonly status: string;
}

/** One compute's lane. */
export interface ComputeLane {
  readonly endpointId: string;
  readonly projectId: string;
  readonly type: string;
  readonly spans: readonly StateSpan[];
  readonly operations: readonly OperationMark[];
}

/** The lanes of every compute in `log`, in creation order, up to `until` (default: the end). */
export function computeLanes(log: Iterable<SimEvent>, until?: number): ComputeLane[] {
  const projection = new LaneProjection();
  for (const event of log) projection.apply(event);
  return projection.lanes(until);
}

/**
 * The lanes as a streaming projection: fed the events of a log in order, a few at a time if need
 * be, then asked once for `lanes` (which closes the open spans, so feed nothing after it).
 */
export class LaneProjection {
  readonly #activity = new ComputeActivity({ spans: true });
  readonly #operations = new Map<string, { at: number; action: string; id: string }[]>();
  readonly #outcomes = new OperationOutcomes();
  #last = 0;

  /** Takes the next event of the log. */
  apply(event: SimEvent): void {
    this.#last = Math.max(this.#last, event.at);
    this.#activity.apply(event);
    this.#outcomes.apply(event);
    if (event.type !== 'OperationCreated' || event.endpointId === undefined) return;
    let operations = this.#operations.get(event.endpointId);
    if (operations === undefined) this.#operations.set(event.endpointId, (operations = []));
    operations.push({ at: event.at, action: event.action, id: event.operationId });
  }

  /** The lanes of the events fed, in creation order, up to `until` (default: the last event). */
  lanes(until?: number): ComputeLane[] {
    this.#activity.finish(until ?? this.#last);
    return [...this.#activity.computes()].map((lane) => ({
      endpointId: lane.endpointId,
      projectId: lane.projectId,
      type: lane.type,
      spans: lane.spans,
      operations: (this.#operations.get(lane.endpointId) ?? []).map((o) => ({
        at: o.at,
        action: o.action,
        status: this.#outcomes.of(o.id),
      })),
    }));
  }
}
