/**
 * What the branch events mean (see eventDeclaration.ts): a branch created, changed, deleted, recovered, purged, preserved, restored, made the default, its availability checks, roles and databases; for each, how it changes the state, what
 * it changes, the timers it arms, and its narration.
 */
import type { Draft } from 'immer';
import { INITIAL_LSN, formatLsn } from '../domain/lsn.js';
import { clearField } from './clearField.js';
import { armBranchPurge } from './computeTimers.js';
import { deletedBranch } from './deletedObjects.js';
import type { Declarations } from './eventDeclaration.js';
import type { NewDatabase, NewRole } from './events.js';
import { describeChanges, recoverable } from './narrationWords.js';
import { plain } from './plainProject.js';
import type { DatabaseState, DeletedBranchState, RoleState } from './state.js';
import { branchOf, projectOf } from './stateAccess.js';
import { branch as branchPath, endpoint, projectFields } from './touchPaths.js';

/** The declarations of the branch events. */
export const BRANCH_EVENTS: Declarations<
  | 'BranchCreated'
  | 'BranchStateChanged'
  | 'BranchUpdated'
  | 'BranchDeleted'
  | 'BranchRecovered'
  | 'BranchPurged'
  | 'BranchPreserved'
  | 'BranchRestored'
  | 'DefaultBranchSet'
  | 'AvailabilityCheckScheduled'
  | 'RoleCreated'
  | 'RolePasswordReset'
  | 'RoleDeleted'
  | 'DatabaseCreated'
  | 'DatabaseUpdated'
  | 'DatabaseDeleted'
> = {
  BranchCreated: {
    apply(draft, e) {
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
    touches: (e, touch) => branchPath(touch, e.projectId, e.branchId),
    timers: 'none',
    narrate: (e) =>
      `branch ${e.branchId} "${e.name}"${e.isDefault ? ' (default)' : ''} created${e.parentId === undefined ? '' : ` from ${e.parentId}`}`,
  },

  BranchStateChanged: {
    apply(draft, e) {
      const branch = projectOf(draft, e.projectId).branches[e.branchId];
      if (branch === undefined) return;
      branch.currentState = e.currentState;
      branch.stateChangedAt = e.at;
      branch.updatedAt = e.at;
    },
    touches: (e, touch) => branchPath(touch, e.projectId, e.branchId),
    timers: 'none',
    narrate: (e) => `branch ${e.branchId} is ${e.currentState}`,
  },

  BranchUpdated: {
    apply(draft, e) {
      const branch = projectOf(draft, e.projectId).branches[e.branchId];
      if (branch === undefined) return;
      if (e.name !== undefined) branch.name = e.name;
      if (e.protected !== undefined) branch.protected = e.protected;
      branch.updatedAt = e.at;
    },
    touches: (e, touch) => branchPath(touch, e.projectId, e.branchId),
    timers: 'none',
    narrate: (e) =>
      `branch ${e.branchId} updated${e.name === undefined ? '' : `: named "${e.name}"`}${e.protected === undefined ? '' : e.protected ? ', protected' : ', unprotected'}`,
  },

  BranchDeleted: {
    apply(draft, e) {
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
    touches: (e, touch) => {
      branchPath(touch, e.projectId, e.branchId);
      touch('projects', e.projectId, 'deletedBranches');
    },
    timers(e, state, profile, arm) {
      if (e.recoverableUntil !== undefined)
        armBranchPurge(e.projectId, e.branchId, e.at, e.recoverableUntil, arm);
    },
    narrate: (e) => `branch ${e.branchId} deleted${recoverable(e.at, e.recoverableUntil)}`,
  },

  BranchRecovered: {
    apply(draft, e) {
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
    touches: (e, touch) => {
      branchPath(touch, e.projectId, e.branchId);
      touch('projects', e.projectId, 'deletedBranches');
      for (const endpointId of e.endpointIds) {
        endpoint(touch, e.projectId, endpointId);
        touch('endpointOwners', endpointId);
      }
    },
    timers: 'none',
    narrate: (e) => `branch ${e.branchId} recovered, its computes idle`,
  },

  BranchPurged: {
    apply(draft, e) {
      delete projectOf(draft, e.projectId).deletedBranches?.[e.branchId];
    },
    touches: (e, touch) => touch('projects', e.projectId, 'deletedBranches'),
    timers: 'none',
    narrate: (e) => `deleted branch ${e.branchId} is gone for good (its recovery window ended)`,
  },

  BranchPreserved: {
    apply(draft, e) {
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
    touches: (e, touch) => {
      branchPath(touch, e.projectId, e.branchId);
      for (const childId of e.childIds) branchPath(touch, e.projectId, childId);
    },
    timers: 'none',
    narrate: (e) =>
      `branch ${e.fromBranchId}'s previous state kept as branch ${e.branchId} "${e.name}"`,
  },

  BranchRestored: {
    apply(draft, e) {
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
    touches: (e, touch) => branchPath(touch, e.projectId, e.branchId),
    timers: 'none',
    narrate: (e) =>
      `branch ${e.branchId} restored${e.parentId === undefined ? '' : ` from ${e.parentId}`} at LSN ${formatLsn(e.timelineStartLsn)}`,
  },

  DefaultBranchSet: {
    apply(draft, e) {
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
    touches: (e, touch) => {
      projectFields(touch, e.projectId);
      branchPath(touch, e.projectId, e.branchId);
      branchPath(touch, e.projectId, e.previousId);
    },
    timers: 'none',
    narrate: (e) => `branch ${e.branchId} is the default branch (was ${e.previousId})`,
  },

  AvailabilityCheckScheduled: {
    apply(draft, e) {
      const branch = projectOf(draft, e.projectId).branches[e.branchId];
      if (branch === undefined) return;
      if (e.dueAt === null) clearField(branch, 'nextCheckAt');
      else branch.nextCheckAt = e.dueAt;
      branch.checkIntervalMs = e.intervalMs;
      branch.usedSinceCheck = false;
    },
    touches: (e, touch) => branchPath(touch, e.projectId, e.branchId),
    timers(e, state, profile, arm) {
      if (e.dueAt !== null) {
        const { projectId, branchId, dueAt } = e;
        arm(dueAt, { type: 'CheckAvailability', projectId, branchId, dueAt }, true);
      }
    },
    narrate: () => undefined,
  },

  RoleCreated: {
    apply(draft, e) {
      branchOf(draft, e.projectId, e.branchId).roles.push({
        name: e.name,
        password: e.password,
        createdAt: e.at,
        updatedAt: e.at,
      });
    },
    touches: (e, touch) => branchPath(touch, e.projectId, e.branchId),
    timers: 'none',
    narrate: (e) => `role "${e.name}" created on ${e.branchId}`,
  },

  RolePasswordReset: {
    apply(draft, e) {
      const role = branchOf(draft, e.projectId, e.branchId).roles.find((r) => r.name === e.name);
      if (role === undefined) return;
      role.password = e.password;
      role.updatedAt = e.at;
    },
    touches: (e, touch) => branchPath(touch, e.projectId, e.branchId),
    timers: 'none',
    narrate: (e) => `role "${e.name}" on ${e.branchId} got a new password`,
  },

  RoleDeleted: {
    apply(draft, e) {
      const branch = branchOf(draft, e.projectId, e.branchId);
      branch.roles = branch.roles.filter((r) => r.name !== e.name);
    },
    touches: (e, touch) => branchPath(touch, e.projectId, e.branchId),
    timers: 'none',
    narrate: (e) => `role "${e.name}" deleted from ${e.branchId}`,
  },

  DatabaseCreated: {
    apply(draft, e) {
      branchOf(draft, e.projectId, e.branchId).databases.push({
        id: e.id,
        name: e.name,
        ownerName: e.ownerName,
        createdAt: e.at,
        updatedAt: e.at,
      });
    },
    touches: (e, touch) => branchPath(touch, e.projectId, e.branchId),
    timers: 'none',
    narrate: (e) => `database "${e.name}" (owner "${e.ownerName}") created on ${e.branchId}`,
  },

  DatabaseUpdated: {
    apply(draft, e) {
      const database = branchOf(draft, e.projectId, e.branchId).databases.find(
        (d) => d.name === e.name,
      );
      if (database === undefined) return;
      if (e.changes.name !== undefined) database.name = e.changes.name;
      if (e.changes.ownerName !== undefined) database.ownerName = e.changes.ownerName;
      database.updatedAt = e.at;
    },
    touches: (e, touch) => branchPath(touch, e.projectId, e.branchId),
    timers: 'none',
    narrate: (e) => `database "${e.name}" on ${e.branchId} updated: ${describeChanges(e.changes)}`,
  },

  DatabaseDeleted: {
    apply(draft, e) {
      const branch = branchOf(draft, e.projectId, e.branchId);
      branch.databases = branch.databases.filter((d) => d.name !== e.name);
    },
    touches: (e, touch) => branchPath(touch, e.projectId, e.branchId),
    timers: 'none',
    narrate: (e) => `database "${e.name}" deleted from ${e.branchId}`,
  },
};

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
