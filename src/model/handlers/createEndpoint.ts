/**
 * CreateEndpoint: a compute on a branch, in `init` pending `active`, with a `start_compute` running.
 * A branch has at most one read-write compute (409); read replicas up to the plan's limit (400 past
 * it; none on paid plans). A compute created
 * disabled stays idle and is not started.
 */
import { err, ok } from '../../core/result.js';
import type { CreateEndpoint } from '../commands.js';
import { CommandDraft } from '../commandDraft.js';
import type { Handler } from '../decideContext.js';
import { firstCheck } from '../availabilityChecks.js';
import { findBranch, lockedBy, notReady } from '../lookups.js';
import { lockedRefusal } from '../lockedRefusal.js';
import {
  endpointCreated,
  secondReadWrite,
  settingsProblem,
  startOrPark,
  tooManyReplicas,
} from '../newEndpoint.js';
import { recordOperations } from '../operationPlanner.js';

/** Decides a compute creation. */
export const createEndpoint: Handler<CreateEndpoint> = (state, command, context) => {
  const found = findBranch(state, command.projectId, command.branchId);
  if (!found.ok) return found;
  const { project, branch } = found.value;
  const problem =
    settingsProblem(command.settings, project.plan, context.profile.limits) ??
    (command.endpointType === 'read_write'
      ? secondReadWrite(state, project.id, branch.id)
      : tooManyReplicas(state, project.id, 1, context.profile.limits)) ??
    notReady(branch);
  if (problem !== undefined) return err(problem);
  const locked = lockedBy(project, { branchId: branch.id }, context.profile.locks);
  if (locked !== undefined) return lockedRefusal(locked, command, { branchId: command.branchId });

  const created = endpointCreated(state, project.id, project.regionId, branch.id, command, context);
  const draft = new CommandDraft(state, context);
  draft.push(created);
  firstCheck(draft, project.id, branch.id);
  const next = startOrPark(created);
  draft.pushAll(next.parked);
  if (next.start !== undefined) recordOperations(draft, project.id, [next.start]);
  return ok(draft.events);
};
