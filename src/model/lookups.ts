/**
 * Finding what a command names, refusing with the right kind when it is missing (404) or locked by
 * an unfinished operation (423).
 */
import { own } from '../core/own.js';
import { err, ok, type Result } from '../core/result.js';
import { operationKind } from '../domain/operationKinds.js';
import { reject, type Rejection } from '../domain/rejection.js';
import type {
  BranchState,
  EndpointState,
  OperationState,
  ProjectState,
  SimState,
} from './state.js';

/** The project, or a 404. */
export function findProject(state: SimState, projectId: string): Result<ProjectState, Rejection> {
  const project = own(state.projects, projectId);
  return project === undefined
    ? err(reject('not_found', `project ${projectId} not found`))
    : ok(project);
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
  if (endpoint === undefined) return err(reject('not_found', `endpoint ${endpointId} not found`));
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
  if (branch === undefined) return err(reject('not_found', `branch ${branchId} not found`));
  return ok({ project: project.value, branch });
}

/** A 423 when an unfinished operation locks the compute or branch, else `undefined`. */
export function lockedBy(
  project: ProjectState,
  target: { readonly endpointId?: string; readonly branchId?: string },
): Rejection | undefined {
  for (const id of Object.keys(project.pendingOperations)) {
    const operation = project.operations[id] as OperationState | undefined;
    if (operation === undefined || operationKind(operation.action).locks === 'nothing') continue;
    const hit =
      (target.endpointId !== undefined && operation.endpointId === target.endpointId) ||
      (target.branchId !== undefined && operation.branchId === target.branchId);
    if (hit) {
      return reject(
        'locked',
        `project already has running conflicting operations, scheduling of new ones is prohibited (${operation.action} ${operation.id} is ${operation.status})`,
      );
    }
  }
  return undefined;
}
