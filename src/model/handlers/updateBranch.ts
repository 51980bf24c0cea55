/**
 * UpdateBranch: rename a branch (names are unique within a project, 409 otherwise) or (un)protect
 * it. Both are metadata of the control plane: no operation is recorded (the public schema's example
 * answers `operations: []`) and no lock applies.
 */
import { err, ok } from '../../core/result.js';
import { reject } from '../../domain/rejection.js';
import type { UpdateBranch } from '../commands.js';
import { CommandDraft } from '../commandDraft.js';
import type { Handler } from '../decideContext.js';
import { findBranch } from '../lookups.js';

/** Decides a branch update. */
export const updateBranch: Handler<UpdateBranch> = (state, command, context) => {
  const found = findBranch(state, command.projectId, command.branchId);
  if (!found.ok) return found;
  const { project, branch } = found.value;
  if (
    command.name !== undefined &&
    Object.values(project.branches).some((b) => b.id !== branch.id && b.name === command.name)
  ) {
    return err(
      reject('conflict', `branch name "${command.name}" is already taken in project ${project.id}`),
    );
  }
  const draft = new CommandDraft(state, context);
  draft.push({
    type: 'BranchUpdated',
    projectId: project.id,
    branchId: branch.id,
    ...(command.name === undefined ? {} : { name: command.name }),
    ...(command.protected === undefined ? {} : { protected: command.protected }),
  });
  return ok(draft.events);
};
