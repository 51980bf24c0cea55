/**
 * Oracle: a failed operation is handled as a failure (spec: "handle `failed` as a failure"). Once the
 * client has seen an operation it was given end in `failed`, `error` or `cancelled`, it does not go
 * on to other changes of that project as if it had finished: its next mutating request there, if
 * any, repeats the request that returned the operation.
 */
import { isMutating, type RecordedRequest } from '../clientRecord.js';
import type { ClientOracle } from './clientOracle.js';
import { FAILURE_STATUSES, operationsIn } from './operationsSeen.js';

/** The client treats failed operations as failures, not as done. */
export function handlesFailedOperations(): ClientOracle {
  return {
    name: 'handlesFailedOperations',
    check(record) {
      const givenBy = new Map<string, RecordedRequest>();
      const failedIn = new Map<
        string,
        { operationId: string; status: string; by: RecordedRequest }
      >();
      for (const request of record.requests) {
        const project = request.projectId;
        const failure = project === undefined ? undefined : failedIn.get(project);
        if (failure !== undefined && isMutating(request)) {
          const repeats = request.method === failure.by.method && request.path === failure.by.path;
          if (!repeats)
            return {
              oracle: 'handlesFailedOperations',
              at: request.at,
              requestIndex: request.index,
              message: `${request.method} ${request.path} went on after operation ${failure.operationId} of request #${failure.by.index} was seen ${failure.status}, as if it had finished`,
            };
          failedIn.delete(project as string);
        }
        for (const seen of operationsIn(request)) {
          const by = givenBy.get(seen.id);
          if (by?.projectId !== undefined && FAILURE_STATUSES.has(seen.status))
            failedIn.set(by.projectId, { operationId: seen.id, status: seen.status, by });
        }
        if (isMutating(request))
          for (const op of operationsIn(request)) givenBy.set(op.id, request);
      }
      return undefined;
    },
  };
}
