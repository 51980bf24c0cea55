/**
 * CreateBranch: a branch from its parent (the default branch unless named), with computes or without:
 * `create_branch` runs first, then each compute's `start_compute` in turn. The branch starts with a
 * copy of its parent's roles (same passwords) and databases (new ids), as they are at its creation.
 */
import { own } from '../../core/own.js';
import { drawUniqueId, newId } from '../../core/ids.js';
import { err, ok } from '../../core/result.js';
import { lsnAt } from '../../domain/lsn.js';
import { notFound, reject } from '../../domain/rejection.js';
import type { CreateBranch } from '../commands.js';
import { CommandDraft } from '../commandDraft.js';
import type { Handler } from '../decideContext.js';
import { firstCheck } from '../availabilityChecks.js';
import { drawDatabaseIds } from '../branchConfig.js';
import { findProject, lockedBy, notReady } from '../lookups.js';
import { lockedRefusal } from '../lockedRefusal.js';
import { endpointCreated, settingsProblem, startOrPark, tooManyReplicas } from '../newEndpoint.js';
import { recordOperations, type PlannedOperation } from '../operationPlanner.js';
import { BRANCH_READY } from '../effectLists.js';

/** Decides a branch creation. */
export const createBranch: Handler<CreateBranch> = (state, command, context) => {
  const found = findProject(state, command.projectId);
  if (!found.ok) return found;
  const project = found.value;
  const parentId = command.parentId ?? project.defaultBranchId;
  const parent = own(project.branches, parentId);
  if (parent === undefined) return err(notFound('branch', parentId));
  if (
    command.name !== undefined &&
    Object.values(project.branches).some((b) => b.name === command.name)
  ) {
    return err(
      reject('conflict', `branch name "${command.name}" is already taken in project ${project.id}`),
    );
  }
  if (command.endpoints.filter((e) => e.endpointType === 'read_write').length > 1) {
    return err(reject('invalid_input', 'a branch can have at most one read_write endpoint'));
  }
  for (const spec of command.endpoints) {
    const problem = settingsProblem(spec.settings, project.plan, context.profile.limits);
    if (problem !== undefined) return err(problem);
  }
  const replicas = command.endpoints.filter((e) => e.endpointType === 'read_only').length;
  const tooMany = tooManyReplicas(state, project.id, replicas, context.profile.limits);
  if (tooMany !== undefined) return err(tooMany);
  const unready = notReady(parent);
  if (unready !== undefined) return err(unready);
  const locked = lockedBy(project, { branchId: parentId }, context.profile.locks);
  if (locked !== undefined) return lockedRefusal(locked, command, { branchId: command.parentId });

  const branchId = drawUniqueId(
    newId.branch,
    context.random('ids'),
    (id) => id in project.branches,
  );
  const databaseIds = drawDatabaseIds(context, project, parent.databases.length);
  const draft = new CommandDraft(state, context);
  draft.push({
    type: 'BranchCreated',
    projectId: project.id,
    branchId,
    name: command.name ?? branchId,
    parentId,
    isDefault: false,
    currentState: 'init',
    parentLsn: lsnAt(parent, context.now),
    roles: parent.roles.map(({ name, password }) => ({ name, password })),
    databases: parent.databases.map(({ name, ownerName }, i) => ({
      id: databaseIds[i] as number,
      name,
      ownerName,
    })),
  });
  const plan: PlannedOperation[] = [
    {
      action: 'create_branch',
      branchId,
      latency: 'create_branch',
      finished: BRANCH_READY,
    },
  ];
  const drawn = new Set<string>();
  for (const spec of command.endpoints) {
    const created = endpointCreated(
      state,
      project.id,
      project.regionId,
      branchId,
      spec,
      context,
      drawn,
    );
    drawn.add(created.endpointId);
    draft.push(created);
    const next = startOrPark(created);
    draft.pushAll(next.parked);
    if (next.start !== undefined) plan.push(next.start);
  }
  recordOperations(draft, project.id, plan);
  if (command.endpoints.length > 0) firstCheck(draft, project.id, branchId);
  return ok(draft.events);
};
