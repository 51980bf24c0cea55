/**
 * Per compute, what a lane chart draws: the spans it spent in each state (init, active, idle) and
 * the operations on it, as a pure projection of the event log.
 */
import type { SimEvent } from '../model/events.js';
import { ComputeActivity, type StateSpan } from './computeActivity.js';
import { OperationOutcomes } from './operationOutcomes.js';

export type { StateSpan } from './computeActivity.js';

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
  const activity = new ComputeActivity({ spans: true });
  const operations = new Map<string, { at: number; action: string; id: string }[]>();
  const outcomes = new OperationOutcomes();
  let last = 0;
  for (const event of log) {
    last = Math.max(last, event.at);
    activity.apply(event);
    outcomes.apply(event);
    switch (event.type) {
      case 'EndpointCreated':
        operations.set(event.endpointId, []);
        break;
      case 'OperationCreated':
        if (event.endpointId !== undefined)
          operations.get(event.endpointId)?.push({
            at: event.at,
            action: event.action,
            id: event.operationId,
          });
        break;
      default:
        break;
    }
  }
  activity.finish(until ?? last);
  return [...activity.computes()].map((lane) => ({
    endpointId: lane.endpointId,
    projectId: lane.projectId,
    type: lane.type,
    spans: lane.spans,
    operations: (operations.get(lane.endpointId) ?? []).map((o) => ({
      at: o.at,
      action: o.action,
      status: outcomes.of(o.id),
    })),
  }));
}
