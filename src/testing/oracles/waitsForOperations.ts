/**
 * Oracle: the client waits for the operations a request returned before its next mutating request
 * to the same project, i.e. it has seen each of them end (or fail) in some answer by then.
 */
import { isMutating } from '../clientRecord.js';
import type { ClientOracle } from './clientOracle.js';
import { FAILURE_STATUSES, operationsIn, TERMINAL_STATUSES } from './operationsSeen.js';

interface Outstanding {
  readonly action: string;
  readonly fromRequest: number;
  lastSeen: string;
}

/** The client never sends a mutating request while operations it was given are still under way. */
export function waitsForOperations(): ClientOracle {
  return {
    name: 'waitsForOperations',
    check(record) {
      const outstanding = new Map<string, Map<string, Outstanding>>();
      for (const request of record.requests) {
        const project = request.projectId;
        if (isMutating(request) && project !== undefined) {
          const first = outstanding.get(project)?.entries().next().value;
          if (first !== undefined) {
            const [id, op] = first;
            return {
              oracle: 'waitsForOperations',
              at: request.at,
              requestIndex: request.index,
              message: `${request.method} ${request.path} was sent while operation ${id} (${op.action}) returned by request #${op.fromRequest} was ${op.lastSeen === 'unseen' ? 'never polled' : `last seen ${op.lastSeen}`}`,
            };
          }
        }
        for (const seen of operationsIn(request)) {
          for (const ops of outstanding.values()) {
            const op = ops.get(seen.id);
            if (op === undefined) continue;
            if (TERMINAL_STATUSES.has(seen.status) || FAILURE_STATUSES.has(seen.status))
              ops.delete(seen.id);
            else op.lastSeen = seen.status;
          }
        }
        if (isMutating(request) && project !== undefined) {
          const given = (request.response as { operations?: unknown } | undefined)?.operations;
          if (request.status >= 200 && request.status < 300 && Array.isArray(given)) {
            const ops = outstanding.get(project) ?? new Map<string, Outstanding>();
            for (const op of operationsIn(request))
              if (!TERMINAL_STATUSES.has(op.status))
                ops.set(op.id, {
                  action: op.action ?? 'operation',
                  fromRequest: request.index,
                  lastSeen: 'unseen',
                });
            outstanding.set(project, ops);
          }
        }
      }
      return undefined;
    },
  };
}
