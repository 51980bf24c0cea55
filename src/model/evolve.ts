/**
 * evolve: applies one event to a draft of the state. Total and boring: every value it needs is in
 * the event, and it never validates (decide already did). Each handler's changed paths are named in
 * touches.ts.
 */
import { INITIAL_LSN } from '../domain/lsn.js';
import { type Draft } from 'immer';
import type { DomainEvent, NewDatabase, NewRole } from './events.js';
import { clearField } from './clearField.js';
import { deletedBranch } from './deletedObjects.js';
import { plain } from './plainProject.js';
import { branchOf, projectOf } from './stateAccess.js';
import { DECLARED_APPLY } from './declaredEvents.js';
import type { DatabaseState, DeletedBranchState, RoleState, SimState } from './state.js';

type S = Draft<SimState>;
type EventHandlers = {
  readonly [K in DomainEvent['type']]: (draft: S, event: Extract<DomainEvent, { type: K }>) => void;
};

const HANDLERS: EventHandlers = {
  ...DECLARED_APPLY,
  BranchCreated(draft, e) {
    projectOf(draft, e.projectId).branches[e.branchId] = {
      id: e.branchId,
      projectId: e.projectId,
      name: e.name,
      ...(e.parentId === undefined ? {} : { parentId: e.parentId }),
      isDefault: e.isDefault,
      usedSinceCheck: false,
      currentState: e.currentState,
      stateChangedAt: e.at,
      createdAt: e.at,
      updatedAt: e.at,
      protected: false,
      timelineStartLsn: e.parentLsn ?? INITIAL_LSN,
      timelineStartedAt: e.at,
      ...(e.parentLsn === undefined ? {} : { parentLsn: e.parentLsn }),
      ...(e.parentId === undefined ? {} : { parentTimestamp: e.at }),
      ...configOf(e),
    };
  },

  BranchStateChanged(draft, e) {
    const branch = projectOf(draft, e.projectId).branches[e.branchId];
    if (branch === undefined) return;
    branch.currentState = e.currentState;
    branch.stateChangedAt = e.at;
    branch.updatedAt = e.at;
  },

  BranchDeleted(draft, e) {
    const project = projectOf(draft, e.projectId);
    if (e.recoverableUntil !== undefined) {
      const before = plain(project);
      const branch = before.branches[e.branchId];
      if (branch === undefined)
        throw new Error(`no branch ${e.branchId} in project ${e.projectId}`);
      const endpoints = Object.values(before.endpoints).filter((x) => x.branchId === e.branchId);
      project.deletedBranches ??= {};
      project.deletedBranches[e.branchId] = deletedBranch(
        branch,
        endpoints,
        e.at,
        e.recoverableUntil,
      ) as Draft<DeletedBranchState>;
    }
    delete project.branches[e.branchId];
  },

  BranchRecovered(draft, e) {
    const project = projectOf(draft, e.projectId);
    const kept = project.deletedBranches?.[e.branchId];
    if (kept === undefined) throw new Error(`no deleted branch ${e.branchId} in ${e.projectId}`);
    project.branches[e.branchId] = kept.branch;
    for (const [endpointId, endpoint] of Object.entries(kept.endpoints)) {
      project.endpoints[endpointId] = endpoint;
      draft.endpointOwners[endpointId] = e.projectId;
    }
    delete project.deletedBranches?.[e.branchId];
  },

  BranchPurged(draft, e) {
    delete projectOf(draft, e.projectId).deletedBranches?.[e.branchId];
  },

  AvailabilityCheckScheduled(draft, e) {
    const branch = projectOf(draft, e.projectId).branches[e.branchId];
    if (branch === undefined) return;
    if (e.dueAt === null) clearField(branch, 'nextCheckAt');
    else branch.nextCheckAt = e.dueAt;
    branch.checkIntervalMs = e.intervalMs;
    branch.usedSinceCheck = false;
  },

  BranchUpdated(draft, e) {
    const branch = projectOf(draft, e.projectId).branches[e.branchId];
    if (branch === undefined) return;
    if (e.name !== undefined) branch.name = e.name;
    if (e.protected !== undefined) branch.protected = e.protected;
    branch.updatedAt = e.at;
  },

  DefaultBranchSet(draft, e) {
    const project = projectOf(draft, e.projectId);
    const previous = project.branches[e.previousId];
    if (previous !== undefined) {
      previous.isDefault = false;
      previous.updatedAt = e.at;
    }
    const branch = project.branches[e.branchId];
    if (branch !== undefined) {
      branch.isDefault = true;
      branch.updatedAt = e.at;
    }
    project.defaultBranchId = e.branchId;
    project.updatedAt = e.at;
  },

  BranchPreserved(draft, e) {
    const project = projectOf(draft, e.projectId);
    project.branches[e.branchId] = {
      id: e.branchId,
      projectId: e.projectId,
      name: e.name,
      ...(e.parentId === undefined ? {} : { parentId: e.parentId }),
      isDefault: false,
      usedSinceCheck: false,
      currentState: 'ready',
      stateChangedAt: e.at,
      createdAt: e.at,
      updatedAt: e.at,
      protected: false,
      timelineStartLsn: e.timelineStartLsn,
      timelineStartedAt: e.timelineStartedAt,
      ...(e.parentLsn === undefined ? {} : { parentLsn: e.parentLsn }),
      ...(e.parentTimestamp === undefined ? {} : { parentTimestamp: e.parentTimestamp }),
      ...configOf(e),
    };
    for (const childId of e.childIds) {
      const child = project.branches[childId];
      if (child === undefined) continue;
      child.parentId = e.branchId;
      child.updatedAt = e.at;
    }
  },

  BranchRestored(draft, e) {
    const branch = projectOf(draft, e.projectId).branches[e.branchId];
    if (branch === undefined) return;
    if (e.parentId === undefined) clearField(branch, 'parentId');
    else branch.parentId = e.parentId;
    if (e.parentLsn === undefined) clearField(branch, 'parentLsn');
    else branch.parentLsn = e.parentLsn;
    if (e.parentTimestamp === undefined) clearField(branch, 'parentTimestamp');
    else branch.parentTimestamp = e.parentTimestamp;
    branch.timelineStartLsn = e.timelineStartLsn;
    branch.timelineStartedAt = e.at;
    branch.lastResetAt = e.at;
    branch.updatedAt = e.at;
  },

  RoleCreated(draft, e) {
    branchOf(draft, e.projectId, e.branchId).roles.push({
      name: e.name,
      password: e.password,
      createdAt: e.at,
      updatedAt: e.at,
    });
  },

  RolePasswordReset(draft, e) {
    const role = branchOf(draft, e.projectId, e.branchId).roles.find((r) => r.name === e.name);
    if (role === undefined) return;
    role.password = e.password;
    role.updatedAt = e.at;
  },

  RoleDeleted(draft, e) {
    const branch = branchOf(draft, e.projectId, e.branchId);
    branch.roles = branch.roles.filter((r) => r.name !== e.name);
  },

  DatabaseCreated(draft, e) {
    branchOf(draft, e.projectId, e.branchId).databases.push({
      id: e.id,
      name: e.name,
      ownerName: e.ownerName,
      createdAt: e.at,
      updatedAt: e.at,
    });
  },

  DatabaseUpdated(draft, e) {
    const database = branchOf(draft, e.projectId, e.branchId).databases.find(
      (d) => d.name === e.name,
    );
    if (database === undefined) return;
    if (e.changes.name !== undefined) database.name = e.changes.name;
    if (e.changes.ownerName !== undefined) database.ownerName = e.changes.ownerName;
    database.updatedAt = e.at;
  },

  DatabaseDeleted(draft, e) {
    const branch = branchOf(draft, e.projectId, e.branchId);
    branch.databases = branch.databases.filter((d) => d.name !== e.name);
  },
};

/** Applies `event` to `draft`. */
export function evolve(draft: S, event: DomainEvent): void {
  (HANDLERS[event.type] as (draft: S, event: DomainEvent) => void)(draft, event);
}

/** The roles and databases a new branch starts with (absent in logs older than roles: none). */
function configOf(e: {
  readonly at: number;
  readonly roles?: readonly NewRole[];
  readonly databases?: readonly NewDatabase[];
}): { roles: RoleState[]; databases: DatabaseState[] } {
  return {
    roles: (e.roles ?? []).map((role) => ({ ...role, createdAt: e.at, updatedAt: e.at })),
    databases: (e.databases ?? []).map((database) => ({
      ...database,
      createdAt: e.at,
      updatedAt: e.at,
    })),
  };
}
