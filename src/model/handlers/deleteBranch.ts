/**
 * DeleteBranch: a branch that is not the default, not protected and has no children goes, with its
 * computes (their connections terminated, their unfinished operations cancelled); a
 * `suspend_compute` for each of them that was running, then a `delete_timeline` operation, removes
 * its data. Unless `hardDelete`, it is kept for recovery for the profile's `recoveryWindowMs`.
 */
import { err, ok } from '../../core/result.js';
import { reject } from '../../domain/rejection.js';
import { SQL_STATES } from '../../domain/sqlState.js';
import { cancelOperations } from '../operationChains.js';
import type { DeleteBranch } from '../commands.js';
import { CommandDraft } from '../commandDraft.js';
import type { Handler } from '../decideContext.js';
import { findBranch, lockedBy } from '../lookups.js';
import { lockedRefusal } from '../lockedRefusal.js';
import { recordOperations, suspendPlan, type PlannedOperation } from '../operationPlanner.js';
import { isDown } from '../../domain/computeState.js';
import { dropConnections } from '../connectionEvents.js';
import { NO_EFFECTS } from '../effectLists.js';
import { endpointDeleted } from '../computeDeclarations.js';

/** Decides a branch deletion. */
export const deleteBranch: Handler<DeleteBranch> = (state, command, context) => {
  const found = findBranch(state, command.projectId, command.branchId);
  if (!found.ok) return found;
  const { project, branch } = found.value;
  if (branch.isDefault)
    return err(
      reject(
        'invalid_input',
        `branch ${branch.id} is the project's default branch and cannot be deleted`,
      ),
    );
  if (branch.protected)
    return err(
      reject('invalid_input', `branch ${branch.id} is protected; unprotect it before deleting it`),
    );
  const child = Object.values(project.branches).find((b) => b.parentId === branch.id);
  if (child !== undefined)
    return err(
      reject(
        'invalid_input',
        `branch ${branch.id} has child branch ${child.id}; delete that first`,
      ),
    );
  const locked = lockedBy(project, { branchId: branch.id }, context.profile.locks);
  if (locked !== undefined) return lockedRefusal(locked, command, { branchId: command.branchId });

  const draft = new CommandDraft(state, context);
  const suspends: PlannedOperation[] = [];
  const computes = Object.values(project.endpoints).filter((e) => e.branchId === branch.id);
  for (const endpoint of computes) {
    // As on the real service, a running compute is suspended before its timeline goes (the compute
    // itself is gone already: the operation only records the work, it changes nothing).
    if (!isDown(endpoint.currentState, endpoint.pendingState))
      suspends.push({
        ...suspendPlan(branch.id, endpoint.id),
        running: NO_EFFECTS,
        finished: NO_EFFECTS,
      });
    draft.pushAll(
      dropConnections(state, project.id, endpoint.id, SQL_STATES.endpointNotFound, 'all'),
    );
  }
  // The branch goes first, so a recoverable deletion keeps its computes (as they come back: idle).
  const window = command.hardDelete === true ? 0 : context.profile.recoveryWindowMs;
  draft.push({
    type: 'BranchDeleted',
    projectId: project.id,
    branchId: branch.id,
    ...(window > 0 ? { recoverableUntil: context.now + window } : {}),
  });
  for (const endpoint of computes) draft.push(endpointDeleted(project.id, endpoint.id));
  cancelOperations(draft, project, (o) => o.branchId === branch.id);
  recordOperations(draft, project.id, [
    ...suspends,
    { action: 'delete_timeline', branchId: branch.id, latency: 'apply_config' },
  ]);
  return ok(draft.events);
};
