/**
 * The state paths each event changes in place, so the engine can publish a snapshot by copying only
 * those (see Decider.touches). Kept beside evolve: a handler that starts changing something new must
 * name it here, and the replay-oracle test fails until it does.
 */
import type { Touch } from '../engine/dirtyPaths.js';
import type { DomainEvent } from './events.js';

type TouchTable = {
  readonly [K in DomainEvent['type']]: (
    event: Extract<DomainEvent, { type: K }>,
    touch: Touch,
  ) => void;
};

const TOUCHES: TouchTable = {
  ProjectCreated: (e, touch) => touch('projects', e.projectId),
  BranchCreated: (e, touch) => touch('projects', e.projectId, 'branches', e.branchId),
  EndpointCreated: (e, touch) => {
    touch('projects', e.projectId, 'endpoints', e.endpointId);
    touch('endpointOwners');
  },
  OperationCreated: (e, touch) => {
    touch('projects', e.projectId, 'operations', e.operationId);
    if (e.afterId !== undefined) touch('projects', e.projectId, 'operations', e.afterId);
  },
  OperationStarted: (e, touch) => touch('projects', e.projectId, 'operations', e.operationId),
  OperationFinished: (e, touch) => touch('projects', e.projectId, 'operations', e.operationId),
  ComputeStateChanged: (e, touch) => touch('projects', e.projectId, 'endpoints', e.endpointId),
};

/** Names the paths `event` changes. */
export function touches(event: DomainEvent, touch: Touch): void {
  (TOUCHES[event.type] as (event: DomainEvent, touch: Touch) => void)(event, touch);
}
