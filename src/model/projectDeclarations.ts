/**
 * What the project events mean (see eventDeclaration.ts): a project created, updated, deleted,
 * recovered, purged, its storage detached and reattached; for each, how it changes the state, the
 * timers it arms, and its narration.
 */
import { PRUNE_EVERY_MS } from './handlers/pruneOperations.js';
import { countUsage } from './computeUsage.js';
import { armBranchPurge, armDetach } from './computeTimers.js';
import { keptProject } from './deletedObjects.js';
import type { Declarations } from './eventDeclaration.js';
import { recoverable } from './narrationWords.js';
import { linkArchive } from './operationStore.js';
import { plain, withEveryOperation } from './plainProject.js';
import type { ProjectState } from './state.js';
import type { TimerCommand } from './timers.js';

/** The declarations of the project events. */
export const PROJECT_EVENTS: Declarations<
  | 'ProjectCreated'
  | 'ProjectUpdated'
  | 'ProjectDeleted'
  | 'ProjectRecovered'
  | 'ProjectPurged'
  | 'TenantAttachmentChanged'
> = {
  ProjectCreated: {
    apply(write, e) {
      const created = write.putProject(e.projectId, {
        id: e.projectId,
        name: e.name,
        regionId: e.regionId,
        defaultBranchId: e.defaultBranchId,
        plan: e.plan,
        detached: false,
        lastUsedAt: e.at,
        pgVersion: e.pgVersion,
        historyRetentionSeconds: e.historyRetentionSeconds,
        ...(e.defaultEndpointSettings === undefined
          ? {}
          : { defaultEndpointSettings: structuredClone(e.defaultEndpointSettings) }),
        createdAt: e.at,
        updatedAt: e.at,
        lastSortKey: 0,
        branches: {},
        endpoints: {},
        operations: {},
        pendingOperations: {},
      });
      linkArchive(write.state, created);
    },
    timers(e, state, profile, arm) {
      if (profile.operationRetentionMs > 0)
        arm(e.at + PRUNE_EVERY_MS, { type: 'PruneOperations', projectId: e.projectId }, true);
    },
    narrate: (e) => `project ${e.projectId} "${e.name}" created in ${e.regionId}`,
  },

  ProjectUpdated: {
    apply(write, e) {
      const project = write.project(e.projectId);
      if (e.name !== undefined) project.name = e.name;
      if (e.historyRetentionSeconds !== undefined)
        project.historyRetentionSeconds = e.historyRetentionSeconds;
      if (e.defaultEndpointSettings !== undefined)
        project.defaultEndpointSettings = structuredClone(e.defaultEndpointSettings);
      project.updatedAt = e.at;
    },
    timers: 'none',
    narrate: (e) =>
      `project ${e.projectId} updated${e.name === undefined ? '' : `: named "${e.name}"`}${e.historyRetentionSeconds === undefined ? '' : `, history retention ${e.historyRetentionSeconds} s`}${e.defaultEndpointSettings === undefined ? '' : ', default compute settings changed'}`,
  },

  ProjectDeleted: {
    apply(write, e) {
      const project = write.project(e.projectId);
      for (const endpointId of Object.keys(project.endpoints)) {
        countUsage(project, write.entry(e.projectId, 'endpoints', endpointId), e.at);
        write.removeRoot('endpointOwners', endpointId);
        write.dropLive(endpointId);
      }
      if (e.recoverableUntil !== undefined) {
        write.putRoot('deletedProjects', e.projectId, {
          project: keptProject(withEveryOperation(plain(project as ProjectState)), e.at),
          deletedAt: e.at,
          recoverableUntil: e.recoverableUntil,
        });
      }
      write.forgetArchived(e.projectId);
      write.removeProject(e.projectId);
    },
    timers(e, state, profile, arm) {
      if (e.recoverableUntil !== undefined) {
        const timer = { type: 'PurgeProject', projectId: e.projectId, deletedAt: e.at };
        arm(e.recoverableUntil, timer as TimerCommand, true);
      }
    },
    narrate: (e) => `project ${e.projectId} deleted${recoverable(e.at, e.recoverableUntil)}`,
  },

  ProjectRecovered: {
    apply(write, e) {
      const kept = write.state.deletedProjects?.[e.projectId];
      if (kept === undefined) throw new Error(`no deleted project ${e.projectId}`);
      const project = { ...kept.project, lastUsedAt: e.at, recoveredAt: e.at };
      linkArchive(write.state, write.putProject(e.projectId, project));
      for (const endpointId of Object.keys(project.endpoints))
        write.putRoot('endpointOwners', endpointId, e.projectId);
      write.removeRoot('deletedProjects', e.projectId);
    },
    timers(e, state, profile, arm) {
      const project = state.projects[e.projectId];
      if (project === undefined) return;
      if (profile.operationRetentionMs > 0) {
        const timer = {
          type: 'PruneOperations',
          projectId: e.projectId,
          recoveredAt: e.at,
        };
        arm(e.at + PRUNE_EVERY_MS, timer as TimerCommand, true);
      }
      // Its branches deleted before it keep their own windows (a timer that fired while the
      // project was away found nothing: arm again; a second firing finds nothing to purge).
      for (const [branchId, kept] of Object.entries(project.deletedBranches ?? {}))
        armBranchPurge(
          e.projectId,
          branchId,
          kept.deletedAt,
          Math.max(e.at, kept.recoverableUntil),
          arm,
        );
      armDetach(state, e.projectId, e.at, profile, arm);
    },
    narrate: (e) => `project ${e.projectId} recovered, its computes idle`,
  },

  ProjectPurged: {
    apply(write, e) {
      write.removeRoot('deletedProjects', e.projectId);
    },
    timers: 'none',
    narrate: (e) => `deleted project ${e.projectId} is gone for good (its recovery window ended)`,
  },

  TenantAttachmentChanged: {
    apply(write, e) {
      const project = write.project(e.projectId);
      project.detached = !e.attached;
      project.updatedAt = e.at;
    },
    timers: 'none',
    narrate: (e) =>
      `project ${e.projectId} storage ${e.attached ? 'reattached' : 'detached after long idleness'}`,
  },
};
