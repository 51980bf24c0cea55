/**
 * The state paths each event changes, so the engine can publish a snapshot by copying only those
 * (see Decider.touches): the smallest objects that cover each change. Kept beside evolve: a handler
 * that starts changing something new must name it here, and the immer-fold test fails until it does.
 */
import type { Touch } from '../engine/dirtyPaths.js';
import { branch, endpoint, projectFields } from './touchPaths.js';
import { DECLARED_TOUCHES } from './declaredEvents.js';
import type { DomainEvent } from './events.js';

type TouchTable = {
  readonly [K in DomainEvent['type']]: (
    event: Extract<DomainEvent, { type: K }>,
    touch: Touch,
  ) => void;
};

const TOUCHES: TouchTable = {
  ...DECLARED_TOUCHES,
  BranchCreated: (e, touch) => branch(touch, e.projectId, e.branchId),
  BranchStateChanged: (e, touch) => branch(touch, e.projectId, e.branchId),
  BranchDeleted: (e, touch) => {
    branch(touch, e.projectId, e.branchId);
    touch('projects', e.projectId, 'deletedBranches');
  },
  BranchRecovered: (e, touch) => {
    branch(touch, e.projectId, e.branchId);
    touch('projects', e.projectId, 'deletedBranches');
    for (const endpointId of e.endpointIds) {
      endpoint(touch, e.projectId, endpointId);
      touch('endpointOwners', endpointId);
    }
  },
  BranchPurged: (e, touch) => touch('projects', e.projectId, 'deletedBranches'),
  AvailabilityCheckScheduled: (e, touch) => branch(touch, e.projectId, e.branchId),
  BranchUpdated: (e, touch) => branch(touch, e.projectId, e.branchId),
  DefaultBranchSet: (e, touch) => {
    projectFields(touch, e.projectId);
    branch(touch, e.projectId, e.branchId);
    branch(touch, e.projectId, e.previousId);
  },
  BranchPreserved: (e, touch) => {
    branch(touch, e.projectId, e.branchId);
    for (const childId of e.childIds) branch(touch, e.projectId, childId);
  },
  BranchRestored: (e, touch) => branch(touch, e.projectId, e.branchId),
  RoleCreated: (e, touch) => branch(touch, e.projectId, e.branchId),
  RolePasswordReset: (e, touch) => branch(touch, e.projectId, e.branchId),
  RoleDeleted: (e, touch) => branch(touch, e.projectId, e.branchId),
  DatabaseCreated: (e, touch) => branch(touch, e.projectId, e.branchId),
  DatabaseUpdated: (e, touch) => branch(touch, e.projectId, e.branchId),
  DatabaseDeleted: (e, touch) => branch(touch, e.projectId, e.branchId),
};

/** Names the paths `event` changes. */
export function touches(event: DomainEvent, touch: Touch): void {
  (TOUCHES[event.type] as (event: DomainEvent, touch: Touch) => void)(event, touch);
}
