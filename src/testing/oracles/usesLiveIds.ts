/**
 * Oracle: the client does not use an id it has itself deleted. From its own answers it knows which
 * computes belong to which branch (every `endpoint` it was shown names its `branch_id`); once a
 * DELETE of a compute, a branch or a project has succeeded, a later request naming that compute
 * or branch (or one of the branch's computes), or a connection to such a compute, uses an id that
 * is gone. What someone else deleted is not judged here: the client could not have known.
 */
import type { ClientOracle, OracleFinding } from './clientOracle.js';

const ENDPOINT = /\/endpoints\/([^/]+)/;
const BRANCH = /\/branches\/([^/]+)/;
const PROJECT = /^\/projects\/([^/]+)/;

/** No request or connection uses an id after the client deleted it. */
export function usesLiveIds(): ClientOracle {
  return {
    name: 'usesLiveIds',
    check(record) {
      const branchOf = new Map<string, string>();
      const projectOf = new Map<string, string>();
      /** Deleted ids, with the request that deleted them. */
      const gone = new Map<string, number>();
      const events = [
        ...record.requests.map((request) => ({ at: request.at, request })),
        ...record.connections.map((connection) => ({ at: connection.at, connection })),
      ].sort((a, b) => a.at - b.at);
      for (const event of events) {
        if ('connection' in event) {
          const by = gone.get(event.connection.endpointId);
          if (by !== undefined)
            return finding(
              event.at,
              { connectionIndex: event.connection.index },
              `connection #${event.connection.index} went to compute ${event.connection.endpointId}, which the client had deleted (request #${by})`,
            );
          continue;
        }
        const { request } = event;
        const named = [ENDPOINT.exec(request.path)?.[1], BRANCH.exec(request.path)?.[1]].filter(
          (id): id is string => id !== undefined,
        );
        for (const id of named) {
          const by = gone.get(id);
          if (by !== undefined && by !== request.index)
            return finding(
              request.at,
              { requestIndex: request.index },
              `${request.method} ${request.path} names ${id}, which the client had deleted (request #${by})`,
            );
        }
        learnOwners(request.response, branchOf, projectOf);
        if (request.method.toUpperCase() !== 'DELETE') continue;
        if (request.status < 200 || request.status >= 300) continue;
        const endpoint = ENDPOINT.exec(request.path)?.[1];
        const branch = BRANCH.exec(request.path)?.[1];
        if (endpoint !== undefined) gone.set(endpoint, request.index);
        else if (branch !== undefined) {
          gone.set(branch, request.index);
          for (const [id, owner] of branchOf) if (owner === branch) gone.set(id, request.index);
        } else {
          const project = PROJECT.exec(request.path)?.[1];
          for (const [id, owner] of projectOf)
            if (owner === project) {
              gone.set(id, request.index);
              const branchId = branchOf.get(id);
              if (branchId !== undefined) gone.set(branchId, request.index);
            }
        }
      }
      return undefined;
    },
  };
}

/** Records the branch and project of every compute an answer shows (`endpoint`, `endpoints`). */
function learnOwners(
  response: unknown,
  branchOf: Map<string, string>,
  projectOf: Map<string, string>,
): void {
  const body = response as { endpoint?: unknown; endpoints?: unknown } | undefined;
  const shown = [
    ...(body?.endpoint === undefined ? [] : [body.endpoint]),
    ...(Array.isArray(body?.endpoints) ? (body.endpoints as unknown[]) : []),
  ];
  for (const endpoint of shown) {
    const { id, branch_id, project_id } = (endpoint ?? {}) as Record<string, unknown>;
    if (typeof id !== 'string') continue;
    if (typeof branch_id === 'string') branchOf.set(id, branch_id);
    if (typeof project_id === 'string') projectOf.set(id, project_id);
  }
}

function finding(
  at: number,
  where: { readonly requestIndex?: number; readonly connectionIndex?: number },
  message: string,
): OracleFinding {
  return { oracle: 'usesLiveIds', at, ...where, message };
}
