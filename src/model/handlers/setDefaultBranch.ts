/**
 * SetDefaultBranch: the branch becomes the project's default and the previous default stops being
 * one, so a project always has exactly one. Only a ready branch can be the default (one still being
 * created is locked by its `create_branch`: 423). No operation is recorded (the public schema's
 * example answers `operations: []`).
 */
import { ok } from '../../core/result.js';
import type { SetDefaultBranch } from '../commands.js';
import { CommandDraft } from '../commandDraft.js';
import type { Handler } from '../decideContext.js';
import { lockedRefusal } from '../lockedRefusal.js';
import { findBranch, lockedBy } from '../lookups.js';

/** Decides a change of default branch. */
export const setDefaultBranch: Handler<SetDefaultBranch> = (state, command, context) => {
  const found = findBranch(state, command.projectId, command.branchId);
  if (!found.ok) return found;
  const { project, branch } = found.value;
  const draft = new CommandDraft(state, context);
  if (branch.isDefault) return ok(draft.events);
  const locked = lockedBy(project, { branchId: branch.id }, context.profile.locks);
  if (locked !== undefined) return lockedRefusal(locked, command, { branchId: branch.id });
  draft.push({
    type: 'DefaultBranchSet',
    projectId: project.id,
    branchId: branch.id,
    previousId: project.defaultBranchId,
  });
  return ok(draft.events);
};
