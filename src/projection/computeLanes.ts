/**
 * Per compute, what a lane chart draws: the spans it spent in each state (init, active, idle) and
 * the operations on it, as a pure projection of the event log.
 */
import type { SimEvent } from '../model/events.js';

/** A span of one state. */
export interface StateSpan {
  readonly from: number;
  readonly to: number;
  readonly state: string;
}

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

interface LaneDraft {
  endpointId: string;
  projectId: string;
  type: string;
  spans: StateSpan[];
  state: string;
  since: number;
  ended: boolean;
  operations: { at: number; action: string; id: string }[];
}

/** The lanes of every compute in `log`, in creation order, up to `until` (default: the end). */
export function computeLanes(log: Iterable<SimEvent>, until?: number): ComputeLane[] {
  const lanes = new Map<string, LaneDraft>();
  const finalStatus = new Map<string, string>();
  let last = 0;
  const close = (lane: LaneDraft, at: number) => {
    if (lane.ended) return;
    if (at > lane.since) lane.spans.push({ from: lane.since, to: at, state: lane.state });
    lane.since = at;
  };
  for (const event of log) {
    last = Math.max(last, event.at);
    switch (event.type) {
      case 'EndpointCreated':
        lanes.set(event.endpointId, {
          endpointId: event.endpointId,
          projectId: event.projectId,
          type: event.endpointType,
          spans: [],
          state: 'init',
          since: event.at,
          ended: false,
          operations: [],
        });
        break;
      case 'ComputeStateChanged': {
        const lane = lanes.get(event.endpointId);
        if (lane === undefined || lane.state === event.currentState) break;
        close(lane, event.at);
        lane.state = event.currentState;
        break;
      }
      case 'EndpointDeleted': {
        const lane = lanes.get(event.endpointId);
        if (lane !== undefined) {
          close(lane, event.at);
          lane.ended = true;
        }
        break;
      }
      case 'ProjectDeleted':
        for (const lane of lanes.values())
          if (lane.projectId === event.projectId) {
            close(lane, event.at);
            lane.ended = true;
          }
        break;
      case 'OperationCreated':
        if (event.endpointId !== undefined)
          lanes.get(event.endpointId)?.operations.push({
            at: event.at,
            action: event.action,
            id: event.operationId,
          });
        finalStatus.set(event.operationId, 'unfinished');
        break;
      case 'OperationFinished':
        finalStatus.set(event.operationId, 'finished');
        break;
      case 'OperationErrored':
        finalStatus.set(event.operationId, 'error');
        break;
      case 'OperationCancelled':
        finalStatus.set(event.operationId, 'cancelled');
        break;
      default:
        break;
    }
  }
  const end = until ?? last;
  return [...lanes.values()].map((lane) => {
    close(lane, end);
    return {
      endpointId: lane.endpointId,
      projectId: lane.projectId,
      type: lane.type,
      spans: lane.spans,
      operations: lane.operations.map((o) => ({
        at: o.at,
        action: o.action,
        status: finalStatus.get(o.id) ?? 'unfinished',
      })),
    };
  });
}
