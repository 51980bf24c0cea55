/**
 * Role commands: create (with a drawn password), reset a password, delete one that owns no database.
 * Each applies the change to the branch's compute (see branchConfig.ts).
 */
import { err } from '../../core/result.js';
import { roleNameProblem } from '../../domain/pgNames.js';
import { reject } from '../../domain/rejection.js';
import { decideConfigChange, drawPassword, findConfigTarget, roleNamed } from '../branchConfig.js';
import type { CreateRole, DeleteRole, ResetRolePassword } from '../commands.js';
import type { Handler } from '../decideContext.js';

/** Decides a role creation: a valid name not yet taken on the branch. */
export const createRole: Handler<CreateRole> = (state, command, context) => {
  const found = findConfigTarget(state, command);
  if (!found.ok) return found;
  const { project, branch } = found.value;
  const problem = roleNameProblem(command.name);
  if (problem !== undefined) return err(reject('invalid_input', problem));
  if (roleNamed(branch, command.name) !== undefined)
    return err(reject('conflict', `role "${command.name}" already exists on branch ${branch.id}`));
  return decideConfigChange(state, context, found.value, command, () => ({
    type: 'RoleCreated',
    projectId: project.id,
    branchId: branch.id,
    name: command.name,
    password: drawPassword(context),
  }));
};

/** Decides a password reset of an existing role. */
export const resetRolePassword: Handler<ResetRolePassword> = (state, command, context) => {
  const found = findConfigTarget(state, command);
  if (!found.ok) return found;
  const { project, branch } = found.value;
  if (roleNamed(branch, command.name) === undefined)
    return err(reject('not_found', `role "${command.name}" not found on branch ${branch.id}`));
  return decideConfigChange(state, context, found.value, command, () => ({
    type: 'RolePasswordReset',
    projectId: project.id,
    branchId: branch.id,
    name: command.name,
    password: drawPassword(context),
  }));
};

/** Decides a role deletion: refused (409) while the role owns a database of the branch. */
export const deleteRole: Handler<DeleteRole> = (state, command, context) => {
  const found = findConfigTarget(state, command);
  if (!found.ok) return found;
  const { project, branch } = found.value;
  if (roleNamed(branch, command.name) === undefined)
    return err(reject('not_found', `role "${command.name}" not found on branch ${branch.id}`));
  const owned = branch.databases.filter((d) => d.ownerName === command.name).map((d) => d.name);
  if (owned.length > 0) {
    const list = owned.map((n) => `"${n}"`).join(', ');
    return err(
      reject(
        'conflict',
        `role "${command.name}" owns ${list} on branch ${branch.id}: delete or re-own them first`,
      ),
    );
  }
  return decideConfigChange(state, context, found.value, command, () => ({
    type: 'RoleDeleted',
    projectId: project.id,
    branchId: branch.id,
    name: command.name,
  }));
};
