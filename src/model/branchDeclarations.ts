/**
 * What the branch events mean (see eventDeclaration.ts): a branch created, changed, deleted,
 * recovered, purged, preserved, restored, made the default, its availability checks, roles and
 * databases; for each, how it changes the state, the timers it arms, and its narration.
 */
import { INITIAL_LSN, formatLsn } from '../domain/lsn.js';
import { clearField } from './clearField.js';
import { armBranchPurge } from './computeTimers.js';
import { deletedBranch } from './deletedObjects.js';
import type { Declarations } from './eventDeclaration.js';
import type { NewDatabase, NewRole } from './branchEventTypes.js';
import { describeChanges, recoverable } from './narrationWords.js';
import { plain } from './plainProject.js';
import type { DatabaseState, RoleState } from './state.js';

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
    apply(write, e) {
      write.put(e.projectId, 'branches', e.branchId, {
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
      });
    },
    timers: 'none',
    narrate: (e) =>
      `branch ${e.branchId} "${e.name}"${e.isDefault ? ' (default)' : ''} created${e.parentId === undefined ? '' : ` from ${e.parentId}`}`,
  },

  BranchStateChanged: {
    apply(write, e) {
      const branch = write.entryIfAny(e.projectId, 'branches', e.branchId);
      if (branch === undefined) return;
      branch.currentState = e.currentState;
      branch.stateChangedAt = e.at;
      branch.updatedAt = e.at;
    },
    timers: 'none',
    narrate: (e) => `branch ${e.branchId} is ${e.currentState}`,
  },

  BranchUpdated: {
    apply(write, e) {
      const branch = write.entryIfAny(e.projectId, 'branches', e.branchId);
      if (branch === undefined) return;
      if (e.name !== undefined) branch.name = e.name;
      if (e.protected !== undefined) branch.protected = e.protected;
      branch.updatedAt = e.at;
    },
    timers: 'none',
    narrate: (e) =>
      `branch ${e.branchId} updated${e.name === undefined ? '' : `: named "${e.name}"`}${e.protected === undefined ? '' : e.protected ? ', protected' : ', unprotected'}`,
  },

  BranchDeleted: {
    apply(write, e) {
      if (e.recoverableUntil !== undefined) {
        const before = plain(write.state.projects[e.projectId]);
        const branch = before?.branches[e.branchId];
        if (before === undefined || branch === undefined)
          throw new Error(`no branch ${e.branchId} in project ${e.projectId}`);
        const endpoints = Object.values(before.endpoints).filter((x) => x.branchId === e.branchId);
        const kept = deletedBranch(branch, endpoints, e.at, e.recoverableUntil);
        write.put(e.projectId, 'deletedBranches', e.branchId, kept);
      }
      write.remove(e.projectId, 'branches', e.branchId);
    },
    timers(e, state, profile, arm) {
      if (e.recoverableUntil !== undefined)
        armBranchPurge(e.projectId, e.branchId, e.at, e.recoverableUntil, arm);
    },
    narrate: (e) => `branch ${e.branchId} deleted${recoverable(e.at, e.recoverableUntil)}`,
  },

  BranchRecovered: {
    apply(write, e) {
      const kept = write.state.projects[e.projectId]?.deletedBranches?.[e.branchId];
      if (kept === undefined) throw new Error(`no deleted branch ${e.branchId} in ${e.projectId}`);
      write.put(e.projectId, 'branches', e.branchId, kept.branch);
      for (const [endpointId, endpoint] of Object.entries(kept.endpoints)) {
        write.put(e.projectId, 'endpoints', endpointId, endpoint);
        write.putRoot('endpointOwners', endpointId, e.projectId);
      }
      write.remove(e.projectId, 'deletedBranches', e.branchId);
    },
    timers: 'none',
    narrate: (e) => `branch ${e.branchId} recovered, its computes idle`,
  },

  BranchPurged: {
    apply(write, e) {
      write.remove(e.projectId, 'deletedBranches', e.branchId);
    },
    timers: 'none',
    narrate: (e) => `deleted branch ${e.branchId} is gone for good (its recovery window ended)`,
  },

  BranchPreserved: {
    apply(write, e) {
      write.put(e.projectId, 'branches', e.branchId, {
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
      });
      for (const childId of e.childIds) {
        const child = write.entryIfAny(e.projectId, 'branches', childId);
        if (child === undefined) continue;
        child.parentId = e.branchId;
        child.updatedAt = e.at;
      }
    },
    timers: 'none',
    narrate: (e) =>
      `branch ${e.fromBranchId}'s previous state kept as branch ${e.branchId} "${e.name}"`,
  },

  BranchRestored: {
    apply(write, e) {
      const branch = write.entryIfAny(e.projectId, 'branches', e.branchId);
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
    timers: 'none',
    narrate: (e) =>
      `branch ${e.branchId} restored${e.parentId === undefined ? '' : ` from ${e.parentId}`} at LSN ${formatLsn(e.timelineStartLsn)}`,
  },

  DefaultBranchSet: {
    apply(write, e) {
      const project = write.project(e.projectId);
      const previous = write.entryIfAny(e.projectId, 'branches', e.previousId);
      if (previous !== undefined) {
        previous.isDefault = false;
        previous.updatedAt = e.at;
      }
      const branch = write.entryIfAny(e.projectId, 'branches', e.branchId);
      if (branch !== undefined) {
        branch.isDefault = true;
        branch.updatedAt = e.at;
      }
      project.defaultBranchId = e.branchId;
      project.updatedAt = e.at;
    },
    timers: 'none',
    narrate: (e) => `branch ${e.branchId} is the default branch (was ${e.previousId})`,
  },

  AvailabilityCheckScheduled: {
    apply(write, e) {
      const branch = write.entryIfAny(e.projectId, 'branches', e.branchId);
      if (branch === undefined) return;
      if (e.dueAt === null) clearField(branch, 'nextCheckAt');
      else branch.nextCheckAt = e.dueAt;
      branch.checkIntervalMs = e.intervalMs;
      branch.usedSinceCheck = false;
    },
    timers(e, state, profile, arm) {
      if (e.dueAt !== null) {
        const { projectId, branchId, dueAt } = e;
        arm(dueAt, { type: 'CheckAvailability', projectId, branchId, dueAt }, true);
      }
    },
    narrate: () => undefined,
  },

  RoleCreated: {
    apply(write, e) {
      write.entry(e.projectId, 'branches', e.branchId).roles.push({
        name: e.name,
        password: e.password,
        createdAt: e.at,
        updatedAt: e.at,
      });
    },
    timers: 'none',
    narrate: (e) => `role "${e.name}" created on ${e.branchId}`,
  },

  RolePasswordReset: {
    apply(write, e) {
      const role = write
        .entry(e.projectId, 'branches', e.branchId)
        .roles.find((r) => r.name === e.name);
      if (role === undefined) return;
      role.password = e.password;
      role.updatedAt = e.at;
    },
    timers: 'none',
    narrate: (e) => `role "${e.name}" on ${e.branchId} got a new password`,
  },

  RoleDeleted: {
    apply(write, e) {
      const branch = write.entry(e.projectId, 'branches', e.branchId);
      branch.roles = branch.roles.filter((r) => r.name !== e.name);
    },
    timers: 'none',
    narrate: (e) => `role "${e.name}" deleted from ${e.branchId}`,
  },

  DatabaseCreated: {
    apply(write, e) {
      write.entry(e.projectId, 'branches', e.branchId).databases.push({
        id: e.id,
        name: e.name,
        ownerName: e.ownerName,
        createdAt: e.at,
        updatedAt: e.at,
      });
    },
    timers: 'none',
    narrate: (e) => `database "${e.name}" (owner "${e.ownerName}") created on ${e.branchId}`,
  },

  DatabaseUpdated: {
    apply(write, e) {
      const database = write
        .entry(e.projectId, 'branches', e.branchId)
        .databases.find((d) => d.name === e.name);
      if (database === undefined) return;
      if (e.changes.name !== undefined) database.name = e.changes.name;
      if (e.changes.ownerName !== undefined) database.ownerName = e.changes.ownerName;
      database.updatedAt = e.at;
    },
    timers: 'none',
    narrate: (e) => `database "${e.name}" on ${e.branchId} updated: ${describeChanges(e.changes)}`,
  },

  DatabaseDeleted: {
    apply(write, e) {
      const branch = write.entry(e.projectId, 'branches', e.branchId);
      branch.databases = branch.databases.filter((d) => d.name !== e.name);
    },
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
