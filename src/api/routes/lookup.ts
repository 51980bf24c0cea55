/**
 * Finding the objects a path names, with the 404 a client gets when one does not exist.
 */
import { err, ok, type Result } from '../../core/result.js';
import { reject, type Rejection } from '../../domain/rejection.js';
import type {
  BranchState,
  EndpointState,
  OperationState,
  ProjectState,
} from '../../model/state.js';
import type { RequestTarget } from '../requestTarget.js';

type Params = Readonly<Record<string, string>>;

/** The project `{project_id}`. */
export function findProject(
  target: RequestTarget,
  params: Params,
): Result<ProjectState, Rejection> {
  const id = params['project_id'] ?? '';
  const project = target.state.projects[id];
  return project === undefined ? err(reject('not_found', `project ${id} not found`)) : ok(project);
}

/** The compute `{endpoint_id}` of the project `{project_id}`. */
export function findEndpoint(
  target: RequestTarget,
  params: Params,
): Result<EndpointState, Rejection> {
  const project = findProject(target, params);
  if (!project.ok) return project;
  const id = params['endpoint_id'] ?? '';
  const endpoint = project.value.endpoints[id];
  return endpoint === undefined
    ? err(reject('not_found', `endpoint ${id} not found`))
    : ok(endpoint);
}

/** The branch `{branch_id}` of the project `{project_id}`. */
export function findBranch(target: RequestTarget, params: Params): Result<BranchState, Rejection> {
  const project = findProject(target, params);
  if (!project.ok) return project;
  const id = params['branch_id'] ?? '';
  const branch = project.value.branches[id];
  return branch === undefined ? err(reject('not_found', `branch ${id} not found`)) : ok(branch);
}

/** The operation `{operation_id}` of the project `{project_id}`. */
export function findOperation(
  target: RequestTarget,
  params: Params,
): Result<OperationState, Rejection> {
  const project = findProject(target, params);
  if (!project.ok) return project;
  const id = params['operation_id'] ?? '';
  const operation = project.value.operations[id];
  return operation === undefined
    ? err(reject('not_found', `operation ${id} not found`))
    : ok(operation);
}
