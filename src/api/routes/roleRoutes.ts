/**
 * Role routes of a branch: list, create, get, delete, reveal and reset the password. Mutations answer
 * with the role and the operations that apply the change to the branch's compute.
 */
import type { RoleCreateRequest } from '@neondatabase/api-client';
import { reject } from '../../domain/rejection.js';
import { roleNamed } from '../../model/branchConfig.js';
import type { BranchState } from '../../model/state.js';
import { errorResponse, type ApiResponse } from '../apiResponse.js';
import { roleDto } from '../dto.js';
import type { RequestTarget } from '../requestTarget.js';
import type { Route } from '../route.js';
import { findBranch, findRole } from './lookup.js';
import { executed, recordedOperations } from './responses.js';

const ROLES = '/projects/{project_id}/branches/{branch_id}/roles';
const ROLE = `${ROLES}/{role_name}`;

/** GET /projects/{project_id}/branches/{branch_id}/roles */
export const listRolesRoute: Route = {
  method: 'GET',
  pattern: ROLES,
  handle({ params, target }) {
    const branch = findBranch(target, params);
    if (!branch.ok) return errorResponse(branch.error);
    const { id, roles } = branch.value;
    return { status: 200, body: { roles: roles.map((role) => roleDto(id, role)) } };
  },
};

/** POST /projects/{project_id}/branches/{branch_id}/roles */
export const createRoleRoute: Route<RoleCreateRequest> = {
  method: 'POST',
  pattern: ROLES,
  handle({ params, body, target }) {
    const branch = findBranch(target, params);
    if (!branch.ok) return errorResponse(branch.error);
    const { name, no_login: noLogin } = body.role;
    if (noLogin === true)
      return errorResponse(
        reject(
          'invalid_input',
          'role.no_login is not simulated: computesim roles always log in with a password',
        ),
      );
    const { projectId, id: branchId } = branch.value;
    const command = { type: 'CreateRole', projectId, branchId, name } as const;
    return executed(target.execute(command), (events) =>
      answer(201, target, branch.value, name, events, true),
    );
  },
};

/** GET /projects/{project_id}/branches/{branch_id}/roles/{role_name} */
export const getRoleRoute: Route = {
  method: 'GET',
  pattern: ROLE,
  handle({ params, target }) {
    const found = findRole(target, params);
    if (!found.ok) return errorResponse(found.error);
    return { status: 200, body: { role: roleDto(found.value.branch.id, found.value.role) } };
  },
};

/** DELETE /projects/{project_id}/branches/{branch_id}/roles/{role_name} (204 when it is gone) */
export const deleteRoleRoute: Route = {
  method: 'DELETE',
  pattern: ROLE,
  handle({ params, target }) {
    const branch = findBranch(target, params);
    if (!branch.ok) return errorResponse(branch.error);
    const name = params['role_name'] ?? '';
    const role = roleNamed(branch.value, name);
    if (role === undefined) return { status: 204, body: undefined };
    const record = roleDto(branch.value.id, role);
    const { projectId, id: branchId } = branch.value;
    return executed(
      target.execute({ type: 'DeleteRole', projectId, branchId, name }),
      (events) => ({
        status: 200,
        body: { role: record, operations: recordedOperations(target, projectId, events) },
      }),
    );
  },
};

/** GET /projects/{project_id}/branches/{branch_id}/roles/{role_name}/reveal_password */
export const revealRolePasswordRoute: Route = {
  method: 'GET',
  pattern: `${ROLE}/reveal_password`,
  handle({ params, target }) {
    const found = findRole(target, params);
    if (!found.ok) return errorResponse(found.error);
    return { status: 200, body: { password: found.value.role.password } };
  },
};

/** POST /projects/{project_id}/branches/{branch_id}/roles/{role_name}/reset_password */
export const resetRolePasswordRoute: Route = {
  method: 'POST',
  pattern: `${ROLE}/reset_password`,
  handle({ params, target }) {
    const found = findRole(target, params);
    if (!found.ok) return errorResponse(found.error);
    const { branch, role } = found.value;
    const command = {
      type: 'ResetRolePassword',
      projectId: branch.projectId,
      branchId: branch.id,
      name: role.name,
    } as const;
    return executed(target.execute(command), (events) =>
      answer(200, target, branch, role.name, events, true),
    );
  },
};

/** The role as it stands after a command, with the operations the command recorded. */
function answer(
  status: number,
  target: RequestTarget,
  before: BranchState,
  name: string,
  events: Parameters<typeof recordedOperations>[2],
  withPassword: boolean,
): ApiResponse {
  const branch = target.state.projects[before.projectId]?.branches[before.id];
  const role = branch === undefined ? undefined : roleNamed(branch, name);
  if (role === undefined) throw new Error(`role ${name} missing from state after its command`);
  return {
    status,
    body: {
      role: roleDto(before.id, role, withPassword),
      operations: recordedOperations(target, before.projectId, events),
    },
  };
}
