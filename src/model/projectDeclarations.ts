/**
 * What the project events mean (see eventDeclaration.ts): a project created, updated, deleted, recovered, purged, its storage detached and reattached; for each, how it changes the state, what
 * it changes, the timers it arms, and its narration.
 */
import type { Draft } from 'immer';
import { PRUNE_EVERY_MS } from './handlers/pruneOperations.js';
import { countUsage } from './computeUsage.js';
import { armBranchPurge, armDetach } from './computeTimers.js';
import { keptProject } from './deletedObjects.js';
import type { Declarations } from './eventDeclaration.js';
import { recoverable } from './narrationWords.js';
import { archiveOf, linkArchive } from './operationStore.js';
import { withEveryOperation } from './plainProject.js';
import type { ProjectState } from './state.js';
import { projectOf } from './stateAccess.js';
import type { TimerCommand } from './timers.js';
import { projectFields } from './touchPaths.js';
import { deleteEntry } from './workingMaps.js';

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
    apply(draft, e) {
      draft.projects[e.projectId] = {
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
      };
      linkArchive(draft, draft.projects[e.projectId] as ProjectState);
    },
    touches: (e, touch) => touch('projects', e.projectId),
    timers(e, state, profile, arm) {
      if (profile.operationRetentionMs > 0)
        arm(e.at + PRUNE_EVERY_MS, { type: 'PruneOperations', projectId: e.projectId }, true);
    },
    narrate: (e) => `project ${e.projectId} "${e.name}" created in ${e.regionId}`,
  },

  ProjectUpdated: {
    apply(draft, e) {
      const project = projectOf(draft, e.projectId);
      if (e.name !== undefined) project.name = e.name;
      if (e.historyRetentionSeconds !== undefined)
        project.historyRetentionSeconds = e.historyRetentionSeconds;
      if (e.defaultEndpointSettings !== undefined)
        project.defaultEndpointSettings = structuredClone(e.defaultEndpointSettings);
      project.updatedAt = e.at;
    },
    touches: (e, touch) => projectFields(touch, e.projectId),
    timers: 'none',
    narrate: (e) =>
      `project ${e.projectId} updated${e.name === undefined ? '' : `: named "${e.name}"`}${e.historyRetentionSeconds === undefined ? '' : `, history retention ${e.historyRetentionSeconds} s`}${e.defaultEndpointSettings === undefined ? '' : ', default compute settings changed'}`,
  },

  ProjectDeleted: {
    apply(draft, e) {
      const project = projectOf(draft, e.projectId);
      for (const [endpointId, endpoint] of Object.entries(project.endpoints)) {
        countUsage(project, endpoint, e.at);
        delete draft.endpointOwners[endpointId];
        deleteEntry(draft.liveConnections, endpointId);
      }
      if (e.recoverableUntil !== undefined) {
        draft.deletedProjects ??= {};
        draft.deletedProjects[e.projectId] = {
          project: keptProject(withEveryOperation(project), e.at) as Draft<ProjectState>,
          deletedAt: e.at,
          recoverableUntil: e.recoverableUntil,
        };
      }
      archiveOf(draft)?.forget(e.projectId);
      delete draft.projects[e.projectId];
    },
    touches: (e, touch) => {
      touch('projects', e.projectId);
      touch('endpointOwners');
      touch('liveConnections');
      touch('deletedProjects');
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
    apply(draft, e) {
      const kept = draft.deletedProjects?.[e.projectId];
      if (kept === undefined) throw new Error(`no deleted project ${e.projectId}`);
      const project = { ...kept.project, lastUsedAt: e.at, recoveredAt: e.at };
      draft.projects[e.projectId] = project;
      linkArchive(draft, project);
      for (const endpointId of Object.keys(project.endpoints))
        draft.endpointOwners[endpointId] = e.projectId;
      delete draft.deletedProjects?.[e.projectId];
    },
    touches: (e, touch) => {
      touch('projects', e.projectId);
      touch('endpointOwners');
      touch('deletedProjects');
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
    apply(draft, e) {
      delete draft.deletedProjects?.[e.projectId];
    },
    touches: (_e, touch) => touch('deletedProjects'),
    timers: 'none',
    narrate: (e) => `deleted project ${e.projectId} is gone for good (its recovery window ended)`,
  },

  TenantAttachmentChanged: {
    apply(draft, e) {
      const project = projectOf(draft, e.projectId);
      project.detached = !e.attached;
      project.updatedAt = e.at;
    },
    touches: (e, touch) => projectFields(touch, e.projectId),
    timers: 'none',
    narrate: (e) =>
      `project ${e.projectId} storage ${e.attached ? 'reattached' : 'detached after long idleness'}`,
  },
};
