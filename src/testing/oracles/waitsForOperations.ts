/**
 * Oracle: the client waits for the operations an answer handed it before its next mutating request
 * to their project, i.e. it has seen each of them end (or fail) in some answer by then. Every answer
 * counts, whatever its path: the operations of `POST /projects` belong to the project it created
 * (each operation says its `project_id`), so a client that creates a project and at once creates a
 * branch in it is found. A refused mutation (423, 422 not ready, a 5xx) is judged too: it was sent
 * before the operations ended, whether or not it got through.
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
      /** Operations handed to the client and not yet seen ended, by project. */
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
        const seen = operationsIn(request);
        for (const op of seen)
          for (const ops of outstanding.values()) {
            const known = ops.get(op.id);
            if (known === undefined) continue;
            if (TERMINAL_STATUSES.has(op.status) || FAILURE_STATUSES.has(op.status))
              ops.delete(op.id);
            else known.lastSeen = op.status;
          }
        if (!isMutating(request)) continue;
        for (const op of seen) {
          const owner = op.projectId ?? project;
          if (owner === undefined || TERMINAL_STATUSES.has(op.status)) continue;
          const ops = outstanding.get(owner) ?? new Map<string, Outstanding>();
          ops.set(op.id, {
            action: op.action ?? 'operation',
            fromRequest: request.index,
            lastSeen: 'unseen',
          });
          outstanding.set(owner, ops);
        }
      }
      return undefined;
    },
  };
}
