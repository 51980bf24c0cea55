/**
 * Finding what a command names, refusing with the right kind when it is missing (404) or locked by
 * an unfinished operation (423).
 */
import { own } from '../core/own.js';
import { err, ok, type Result } from '../core/result.js';
import { operationKind } from '../domain/operationKinds.js';
import type { LocksProfile } from '../domain/profile.js';
import {
  BRANCH_NOT_READY_MESSAGE,
  LOCKED_MESSAGE,
  notFound,
  reject,
  type Rejection,
} from '../domain/rejection.js';
import type { BranchState, EndpointState, ProjectState, SimState } from './state.js';

/** The project, or a 404. */
export function findProject(state: SimState, projectId: string): Result<ProjectState, Rejection> {
  const project = own(state.projects, projectId);
  return project === undefined ? err(notFound('project', projectId)) : ok(project);
}

/** The compute of a project, with its project, or a 404. */
export function findEndpoint(
  state: SimState,
  projectId: string,
  endpointId: string,
): Result<{ project: ProjectState; endpoint: EndpointState }, Rejection> {
  const project = findProject(state, projectId);
  if (!project.ok) return project;
  const endpoint = own(project.value.endpoints, endpointId);
  if (endpoint === undefined) return err(notFound('endpoint', endpointId));
  return ok({ project: project.value, endpoint });
}

/** The branch of a project, with its project, or a 404. */
export function findBranch(
  state: SimState,
  projectId: string,
  branchId: string,
): Result<{ project: ProjectState; branch: BranchState }, Rejection> {
  const project = findProject(state, projectId);
  if (!project.ok) return project;
  const branch = own(project.value.branches, branchId);
  if (branch === undefined) return err(notFound('branch', branchId));
  return ok({ project: project.value, branch });
}

/**
 * A 423 when the project refuses new work, else `undefined`: an unfinished operation that locks
 * holds the whole project (with `locks.scope: 'compute-and-branch'`, only the compute or branch it
 * works on), or the project already has `locks.maxUnfinishedOperations` unfinished operations. The
 * message is the real service's fixed text; which operation holds the lock goes in `detail`.
 */
export function lockedBy(
  project: ProjectState,
  target: { readonly endpointId?: string; readonly branchId?: string },
  locks: LocksProfile,
): Rejection | undefined {
  const unfinished = Object.keys(project.pendingOperations);
  for (const id of unfinished) {
    const operation = project.operations[id];
    if (operation === undefined || operationKind(operation.action).locks === 'nothing') continue;
    const hit =
      locks.scope === 'project' ||
      (target.endpointId !== undefined && operation.endpointId === target.endpointId) ||
      (target.branchId !== undefined && operation.branchId === target.branchId);
    if (hit) {
      return reject(
        'locked',
        LOCKED_MESSAGE,
        `${operation.action} ${operation.id} is ${operation.status}`,
      );
    }
  }
  if (unfinished.length >= locks.maxUnfinishedOperations) {
    return reject(
      'locked',
      LOCKED_MESSAGE,
      `${unfinished.length} operations are unfinished (at most ${locks.maxUnfinishedOperations} per project)`,
    );
  }
  return undefined;
}

/**
 * A 422 when `branch` is still being created (the real service's `branch not ready yet`, which
 * clients retry), else `undefined`.
 */
export function notReady(branch: BranchState): Rejection | undefined {
  return branch.currentState === 'init'
    ? reject('not_ready', BRANCH_NOT_READY_MESSAGE, `branch ${branch.id} is being created`)
    : undefined;
}
