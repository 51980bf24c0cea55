/**
 * Monitor: every operation reaches a terminal status (finished, error, cancelled) in bounded time.
 */
import { parseDuration } from '../../core/duration.js';
import type { Monitor } from './monitor.js';

/** How long an operation may stay unfinished, unless told otherwise. */
const DEFAULT_WITHIN = '6h';

/**
 * Fires when an operation is still not terminal `within` (default `6h`) of virtual time after it
 * was created: at the first event past that bound, or when the stream ends past it. Operations of
 * a deleted project are no longer watched. The default is short of a client run's day
 * (`SimHarness.run`'s `within`), so an operation stuck early in a run is reported within it.
 */
export function operationsEventuallyTerminal(options: { within?: string } = {}): Monitor {
  const bound = options.within ?? DEFAULT_WITHIN;
  const within = parseDuration(bound);
  const open = new Map<string, { projectId: string; action: string; createdAt: number }>();
  // No open operation was created before this time (ending or forgetting operations only raises
  // the earliest creation). Until `within` has passed since it, no operation can be overdue, so an
  // event need not walk the open ones.
  let createdNoEarlier = Infinity;
  const overdue = (at: number) => {
    if (at - createdNoEarlier <= within) return undefined;
    // In creation order, so the first one not overdue ends the search.
    for (const [id, op] of open) {
      if (at - op.createdAt <= within) {
        createdNoEarlier = earliestCreation();
        return undefined;
      }
      open.delete(id);
      return `operation ${id} (${op.action}) is not terminal ${bound} after it was created`;
    }
    createdNoEarlier = Infinity;
    return undefined;
  };
  const earliestCreation = () => {
    let earliest = Infinity;
    for (const op of open.values()) earliest = Math.min(earliest, op.createdAt);
    return earliest;
  };
  return {
    name: 'operationsEventuallyTerminal',
    observe(event) {
      switch (event.type) {
        case 'OperationCreated':
          createdNoEarlier = Math.min(createdNoEarlier, event.at);
          open.set(event.operationId, {
            projectId: event.projectId,
            action: event.action,
            createdAt: event.at,
          });
          break;
        case 'OperationFinished':
        case 'OperationErrored':
        case 'OperationCancelled':
          open.delete(event.operationId);
          break;
        case 'ProjectDeleted':
          for (const [id, op] of open) if (op.projectId === event.projectId) open.delete(id);
          break;
        default:
          break; // other events neither open nor end an operation
      }
      return overdue(event.at);
    },
    finish: overdue,
  };
}
