/**
 * Database commands: create (owned by a role of the branch), rename or change owner, delete. Each
 * applies the change to the branch's compute (see branchConfig.ts).
 */
import { err, ok } from '../../core/result.js';
import { databaseNameProblem } from '../../domain/pgNames.js';
import { reject, type Rejection } from '../../domain/rejection.js';
import {
  databaseNamed,
  decideConfigChange,
  drawDatabaseIds,
  findConfigTarget,
  roleNamed,
} from '../branchConfig.js';
import type { CreateDatabase, DeleteDatabase, UpdateDatabase } from '../commands.js';
import type { Handler } from '../decideContext.js';
import type { BranchState } from '../state.js';

/** Decides a database creation: a valid, free name and an owner that is a role of the branch. */
export const createDatabase: Handler<CreateDatabase> = (state, command, context) => {
  const found = findConfigTarget(state, command);
  if (!found.ok) return found;
  const { project, branch } = found.value;
  const problem = nameProblem(branch, command.name) ?? ownerProblem(branch, command.ownerName);
  if (problem !== undefined) return err(problem);
  return decideConfigChange(state, context, found.value, command, () => ({
    type: 'DatabaseCreated',
    projectId: project.id,
    branchId: branch.id,
    id: (drawDatabaseIds(context, project, 1) as [number])[0],
    name: command.name,
    ownerName: command.ownerName,
  }));
};

/** Decides a database update; a request that changes nothing records nothing. */
export const updateDatabase: Handler<UpdateDatabase> = (state, command, context) => {
  const found = findConfigTarget(state, command);
  if (!found.ok) return found;
  const { project, branch } = found.value;
  const database = databaseNamed(branch, command.name);
  if (database === undefined)
    return err(reject('not_found', `database "${command.name}" not found on branch ${branch.id}`));
  const changes: { name?: string; ownerName?: string } = {};
  const { name, ownerName } = command.changes;
  if (name !== undefined && name !== database.name) changes.name = name;
  if (ownerName !== undefined && ownerName !== database.ownerName) changes.ownerName = ownerName;
  const problem =
    (changes.name === undefined ? undefined : nameProblem(branch, changes.name)) ??
    (changes.ownerName === undefined ? undefined : ownerProblem(branch, changes.ownerName));
  if (problem !== undefined) return err(problem);
  if (Object.keys(changes).length === 0) return ok([]);
  return decideConfigChange(state, context, found.value, command, () => ({
    type: 'DatabaseUpdated',
    projectId: project.id,
    branchId: branch.id,
    name: database.name,
    changes,
  }));
};

/** Decides a database deletion. */
export const deleteDatabase: Handler<DeleteDatabase> = (state, command, context) => {
  const found = findConfigTarget(state, command);
  if (!found.ok) return found;
  const { project, branch } = found.value;
  if (databaseNamed(branch, command.name) === undefined)
    return err(reject('not_found', `database "${command.name}" not found on branch ${branch.id}`));
  return decideConfigChange(state, context, found.value, command, () => ({
    type: 'DatabaseDeleted',
    projectId: project.id,
    branchId: branch.id,
    name: command.name,
  }));
};

/** Why `name` cannot be a new database name on the branch (400 invalid, 409 taken). */
function nameProblem(branch: BranchState, name: string): Rejection | undefined {
  const problem = databaseNameProblem(name);
  if (problem !== undefined) return reject('invalid_input', problem);
  if (databaseNamed(branch, name) !== undefined)
    return reject('conflict', `database "${name}" already exists on branch ${branch.id}`);
  return undefined;
}

/** A 400 when `ownerName` is not a role of the branch. */
function ownerProblem(branch: BranchState, ownerName: string): Rejection | undefined {
  return roleNamed(branch, ownerName) === undefined
    ? reject(
        'invalid_input',
        `owner role "${ownerName}" does not exist on branch ${branch.id}; create the role first`,
      )
    : undefined;
}
