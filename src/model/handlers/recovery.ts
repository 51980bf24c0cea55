/**
 * Recovering deleted projects and branches within their window (the profile's `recoveryWindowMs`),
 * and the timers that end the window: after it, the object is gone for good.
 */
import { own } from '../../core/own.js';
import { err, ok } from '../../core/result.js';
import { notFound, reject } from '../../domain/rejection.js';
import type { RecoverBranch, RecoverProject } from '../commands.js';
import type { Handler } from '../decideContext.js';
import { firstCheck } from '../availabilityChecks.js';
import { CommandDraft } from '../commandDraft.js';
import { lockedRefusal } from '../lockedRefusal.js';
import { findProject, lockedBy } from '../lookups.js';
import type { PurgeBranch, PurgeProject } from '../timers.js';

/**
 * Decides a project's recovery: it comes back with its branches, computes (idle), roles, databases
 * and ended operations, under the same ids; branches with computes get their availability checks
 * again. A project that is not deleted is a 409; one never
 * deleted, deleted for good or past its window, a 404.
 */
export const recoverProject: Handler<RecoverProject> = (state, command, context) => {
  if (own(state.projects, command.projectId) !== undefined)
    return err(reject('conflict', 'project is not deleted', `project "${command.projectId}"`));
  const kept = own(state.deletedProjects ?? {}, command.projectId);
  if (kept === undefined || context.now >= kept.recoverableUntil)
    return err(notFound('project', command.projectId));
  const draft = new CommandDraft(state, context);
  const endpoints = Object.values(kept.project.endpoints);
  draft.push({
    type: 'ProjectRecovered',
    projectId: command.projectId,
    endpointIds: endpoints.map((e) => e.id),
  });
  // Its branches with computes are checked again, from now on (their old schedule ended with it).
  for (const branchId of new Set(endpoints.map((e) => e.branchId)))
    firstCheck(draft, command.projectId, branchId);
  return ok(draft.events);
};

/**
 * Decides a branch's recovery: it comes back with its computes (idle), roles and databases. Refused
 * with 409 when the branch is not deleted, when its name was taken since (a branch name is unique in
 * a project) or when its parent is deleted (recover the parent first), and with 423 while an
 * operation locks the project (its deletion's own, for one).
 */
export const recoverBranch: Handler<RecoverBranch> = (state, command, context) => {
  const found = findProject(state, command.projectId);
  if (!found.ok) return found;
  const project = found.value;
  const named = `branch "${command.branchId}"`;
  if (own(project.branches, command.branchId) !== undefined)
    return err(reject('conflict', 'branch is not deleted', named));
  const kept = own(project.deletedBranches ?? {}, command.branchId);
  if (kept === undefined || context.now >= kept.recoverableUntil)
    return err(notFound('branch', command.branchId));
  const { branch } = kept;
  if (Object.values(project.branches).some((b) => b.name === branch.name)) {
    return err(
      reject(
        'conflict',
        `branch name "${branch.name}" is already taken in project ${project.id}; rename that branch before recovering this one`,
        named,
      ),
    );
  }
  if (branch.parentId !== undefined && own(project.branches, branch.parentId) === undefined) {
    return err(
      reject(
        'conflict',
        `the parent branch ${branch.parentId} is deleted; recover it first`,
        named,
      ),
    );
  }
  const locked = lockedBy(project, { branchId: branch.id }, context.profile.locks);
  if (locked !== undefined) return lockedRefusal(locked, command, { branchId: branch.id });
  const draft = new CommandDraft(state, context);
  const endpointIds = Object.keys(kept.endpoints);
  draft.push({ type: 'BranchRecovered', projectId: project.id, branchId: branch.id, endpointIds });
  if (endpointIds.length > 0) firstCheck(draft, project.id, branch.id);
  return ok(draft.events);
};

/** The end of a deleted project's window: gone for good, unless it was recovered since. */
export const purgeProject: Handler<PurgeProject> = (state, command) => {
  const kept = own(state.deletedProjects ?? {}, command.projectId);
  if (kept === undefined || kept.deletedAt !== command.deletedAt) return ok([]);
  return ok([{ type: 'ProjectPurged', projectId: command.projectId }]);
};

/**
 * The end of a deleted branch's window: gone for good, unless it was recovered since (or its project
 * is deleted too: the project's recovery arms this again).
 */
export const purgeBranch: Handler<PurgeBranch> = (state, command) => {
  const project = own(state.projects, command.projectId);
  const kept =
    project === undefined ? undefined : own(project.deletedBranches ?? {}, command.branchId);
  if (kept === undefined || kept.deletedAt !== command.deletedAt) return ok([]);
  const { projectId, branchId } = command;
  return ok([{ type: 'BranchPurged', projectId, branchId }]);
};
