/**
 * The state paths that events change, as the publishing of snapshots names them (see
 * `Decider.touches`): a project's own fields, a branch, a compute, an operation, a connection.
 */
import { OWN_FIELDS, type Touch } from '../engine/dirtyPaths.js';

/** A project's own fields (such as `lastSortKey`, `lastUsedAt`, `detached`), not what it holds. */
export const projectFields = (touch: Touch, projectId: string) =>
  touch('projects', projectId, OWN_FIELDS);
/** A branch, with its roles and databases. */
export const branch = (touch: Touch, projectId: string, branchId: string) =>
  touch('projects', projectId, 'branches', branchId);
/** A compute. */
export const endpoint = (touch: Touch, projectId: string, endpointId: string) =>
  touch('projects', projectId, 'endpoints', endpointId);
/** An operation, and its place among its project's pending ones. */
export const operation = (touch: Touch, projectId: string, operationId: string) => {
  touch('projects', projectId, 'operations', operationId);
  touch('projects', projectId, 'pendingOperations', operationId);
};
/** A connection's records, its compute and its project's `lastUsedAt`. */
export const connection = (
  touch: Touch,
  e: { connectionId: string; endpointId: string; projectId?: string },
) => {
  touch('connections', e.connectionId);
  touch('liveConnections', e.endpointId, e.connectionId);
  if (e.projectId === undefined) return;
  endpoint(touch, e.projectId, e.endpointId);
  projectFields(touch, e.projectId);
};
