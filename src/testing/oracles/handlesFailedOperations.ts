/**
 * Oracle: a failed operation is handled as a failure (spec: "handle `failed` as a failure"), not
 * as if it had finished. Once the client has seen an operation it was given be `failed`, `error` or
 * `cancelled`, its next mutating request to that project must be one of what a careful client does
 * (`shared/spec/fidelity.md`: `failed` is not terminal, the control plane retries it):
 * - nothing, or not until it has seen the operation `finished` after all (it waited for the retry);
 * - the request that returned the operation, again: the same method, path and body (it retried
 *   itself; the same path with another body, a PATCH with other settings, is another change);
 * - a DELETE (it reports the failure and cleans up).
 * Anything else goes on as if the operation had finished, and is found.
 */
import { isMutating, type RecordedRequest } from '../clientRecord.js';
import type { ClientOracle } from './clientOracle.js';
import { FAILURE_STATUSES, operationsIn, SUCCESS_STATUSES } from './operationsSeen.js';

interface Failure {
  readonly operationId: string;
  readonly status: string;
  readonly by: RecordedRequest;
}

/** The client treats failed operations as failures, not as done. */
export function handlesFailedOperations(): ClientOracle {
  return {
    name: 'handlesFailedOperations',
    check(record) {
      const givenBy = new Map<string, RecordedRequest>();
      /** The failure a project's next mutation must answer, by project. */
      const failedIn = new Map<string, Failure>();
      for (const request of record.requests) {
        const project = request.projectId;
        const failure = project === undefined ? undefined : failedIn.get(project);
        if (failure !== undefined && isMutating(request)) {
          const repeats =
            request.method === failure.by.method &&
            request.path === failure.by.path &&
            sameBody(request.body, failure.by.body);
          if (!repeats && request.method.toUpperCase() !== 'DELETE')
            return {
              oracle: 'handlesFailedOperations',
              at: request.at,
              requestIndex: request.index,
              message: `${request.method} ${request.path} went on after operation ${failure.operationId} of request #${failure.by.index} was seen ${failure.status}, as if it had finished (wait for it to finish, retry the request, or clean up)`,
            };
          failedIn.delete(project as string);
        }
        for (const seen of operationsIn(request)) {
          const by = givenBy.get(seen.id);
          const owner = seen.projectId ?? by?.projectId;
          if (by === undefined || owner === undefined) continue;
          if (FAILURE_STATUSES.has(seen.status))
            failedIn.set(owner, { operationId: seen.id, status: seen.status, by });
          else if (
            SUCCESS_STATUSES.has(seen.status) &&
            failedIn.get(owner)?.operationId === seen.id
          )
            failedIn.delete(owner);
        }
        if (isMutating(request))
          for (const op of operationsIn(request)) givenBy.set(op.id, request);
      }
      return undefined;
    },
  };
}

/** Whether two request bodies say the same (as JSON; a retry sends what it sent before). */
function sameBody(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
