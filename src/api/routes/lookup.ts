/**
 * Finding the objects a path names (`{project_id}`, `{branch_id}`, …), with the 404 a client gets when
 * one does not exist: the model's lookups, fed from path parameters.
 */
import { err, ok, type Result } from '../../core/result.js';
import { notFound, type Rejection } from '../../domain/rejection.js';
import * as model from '../../model/lookups.js';
import { databaseNamed, roleNamed } from '../../model/branchConfig.js';
import { operationIn } from '../../model/operationStore.js';
import type {
  BranchState,
  DatabaseState,
  EndpointState,
  OperationState,
  ProjectState,
  RoleState,
} from '../../model/state.js';
import type { RequestTarget } from '../requestTarget.js';

type Params = Readonly<Record<string, string>>;

/** The project `{project_id}`. */
export function findProject(
  target: RequestTarget,
  params: Params,
): Result<ProjectState, Rejection> {
  return model.findProject(target.state, params['project_id'] ?? '');
}

/** The compute `{endpoint_id}` of the project `{project_id}`. */
export function findEndpoint(
  target: RequestTarget,
  params: Params,
): Result<EndpointState, Rejection> {
  const found = model.findEndpoint(
    target.state,
    params['project_id'] ?? '',
    params['endpoint_id'] ?? '',
  );
  return found.ok ? ok(found.value.endpoint) : found;
}

/** The branch `{branch_id}` of the project `{project_id}`. */
export function findBranch(target: RequestTarget, params: Params): Result<BranchState, Rejection> {
  const found = model.findBranch(
    target.state,
    params['project_id'] ?? '',
    params['branch_id'] ?? '',
  );
  return found.ok ? ok(found.value.branch) : found;
}

/** The operation `{operation_id}` of the project `{project_id}`. */
export function findOperation(
  target: RequestTarget,
  params: Params,
): Result<OperationState, Rejection> {
  const project = findProject(target, params);
  if (!project.ok) return project;
  const id = params['operation_id'] ?? '';
  const operation = operationIn(project.value, id);
  return operation === undefined ? err(notFound('operation', id)) : ok(operation);
}

/** The role `{role_name}` of the branch `{branch_id}`, with its branch. */
export function findRole(
  target: RequestTarget,
  params: Params,
): Result<{ branch: BranchState; role: RoleState }, Rejection> {
  const branch = findBranch(target, params);
  if (!branch.ok) return branch;
  const name = params['role_name'] ?? '';
  const role = roleNamed(branch.value, name);
  return role === undefined ? err(notFound('role', name)) : ok({ branch: branch.value, role });
}

/** The database `{database_name}` of the branch `{branch_id}`, with its branch. */
export function findDatabase(
  target: RequestTarget,
  params: Params,
): Result<{ branch: BranchState; database: DatabaseState }, Rejection> {
  const branch = findBranch(target, params);
  if (!branch.ok) return branch;
  const name = params['database_name'] ?? '';
  const database = databaseNamed(branch.value, name);
  return database === undefined
    ? err(notFound('database', name))
    : ok({ branch: branch.value, database });
}
