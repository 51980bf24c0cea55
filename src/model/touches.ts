/**
 * The state paths each event changes, so the engine can publish a snapshot by copying only those
 * (see Decider.touches): the smallest objects that cover each change. Kept beside evolve: a handler
 * that starts changing something new must name it here, and the immer-fold test fails until it does.
 */
import { OWN_FIELDS, type Touch } from '../engine/dirtyPaths.js';
import type { DomainEvent } from './events.js';

type TouchTable = {
  readonly [K in DomainEvent['type']]: (
    event: Extract<DomainEvent, { type: K }>,
    touch: Touch,
  ) => void;
};

const endpoint = (touch: Touch, projectId: string, endpointId: string) =>
  touch('projects', projectId, 'endpoints', endpointId);
const operation = (touch: Touch, projectId: string, operationId: string) => {
  touch('projects', projectId, 'operations', operationId);
  touch('projects', projectId, 'pendingOperations', operationId);
};
const connection = (
  touch: Touch,
  e: { connectionId: string; endpointId: string; projectId?: string },
) => {
  touch('connections', e.connectionId);
  touch('liveConnections', e.endpointId, e.connectionId);
  if (e.projectId !== undefined) endpoint(touch, e.projectId, e.endpointId);
};

const TOUCHES: TouchTable = {
  ProjectCreated: (e, touch) => touch('projects', e.projectId),
  ProjectDeleted: (e, touch) => {
    touch('projects', e.projectId);
    touch('endpointOwners');
    touch('liveConnections');
  },
  BranchCreated: (e, touch) => touch('projects', e.projectId, 'branches', e.branchId),
  BranchStateChanged: (e, touch) => touch('projects', e.projectId, 'branches', e.branchId),
  BranchDeleted: (e, touch) => touch('projects', e.projectId, 'branches', e.branchId),
  EndpointCreated: (e, touch) => {
    endpoint(touch, e.projectId, e.endpointId);
    touch('endpointOwners', e.endpointId);
  },
  EndpointUpdated: (e, touch) => endpoint(touch, e.projectId, e.endpointId),
  EndpointDeleted: (e, touch) => {
    endpoint(touch, e.projectId, e.endpointId);
    touch('endpointOwners', e.endpointId);
    touch('liveConnections', e.endpointId);
  },
  OperationCreated: (e, touch) => {
    operation(touch, e.projectId, e.operationId);
    if (e.afterId !== undefined) touch('projects', e.projectId, 'operations', e.afterId);
  },
  OperationStarted: (e, touch) => operation(touch, e.projectId, e.operationId),
  OperationFinished: (e, touch) => operation(touch, e.projectId, e.operationId),
  OperationFailed: (e, touch) => operation(touch, e.projectId, e.operationId),
  OperationErrored: (e, touch) => operation(touch, e.projectId, e.operationId),
  OperationCancelled: (e, touch) => operation(touch, e.projectId, e.operationId),
  ComputeStateChanged: (e, touch) => endpoint(touch, e.projectId, e.endpointId),
  AvailabilityCheckScheduled: (e, touch) => touch('projects', e.projectId, 'branches', e.branchId),
  TenantAttachmentChanged: (e, touch) => touch('projects', e.projectId, OWN_FIELDS),
  ConnectionRequested: (e, touch) => connection(touch, e),
  ConnectionOpened: (e, touch) => {
    connection(touch, e);
    touch('projects', e.projectId, 'branches', e.branchId);
  },
  ConnectionRefused: (e, touch) => connection(touch, e),
  ConnectionClosed: (e, touch) => connection(touch, e),
  ConnectionsDropped: (e, touch) => {
    for (const connectionId of e.connectionIds)
      connection(touch, { connectionId, endpointId: e.endpointId });
    endpoint(touch, e.projectId, e.endpointId);
  },
};

/** Names the paths `event` changes. */
export function touches(event: DomainEvent, touch: Touch): void {
  (TOUCHES[event.type] as (event: DomainEvent, touch: Touch) => void)(event, touch);
}
