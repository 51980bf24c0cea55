/**
 * CreateProject: a project, its default branch, a primary read-write compute in `init` (pending
 * `active`), and the operations `create_timeline` (running) then `start_compute` (scheduling). The
 * default branch starts with the owner role `neondb_owner` and the database `neondb` it owns.
 */
import { drawUniqueId, newId } from '../../core/ids.js';
import { err, ok } from '../../core/result.js';
import type { CreateProject } from '../commands.js';
import { CommandDraft } from '../commandDraft.js';
import type { Handler } from '../decideContext.js';
import { endpointCreated, settingsProblem, startOrPark } from '../newEndpoint.js';
import { recordOperations, type PlannedOperation } from '../operationPlanner.js';
import { firstCheck } from '../availabilityChecks.js';
import { DEFAULT_DATABASE, OWNER_ROLE, drawDatabaseIds, drawPassword } from '../branchConfig.js';

/** Decides a project creation. */
export const createProject: Handler<CreateProject> = (state, command, context) => {
  const problem = settingsProblem(command.endpoint, context.profile.plan, context.profile.limits);
  if (problem !== undefined) return err(problem);
  const ids = context.random('ids');
  const projectId = drawUniqueId(newId.project, ids, (id) => id in state.projects);
  const branchId = newId.branch(ids);
  const regionId = command.regionId ?? context.profile.regionId;
  const created = endpointCreated(
    state,
    projectId,
    regionId,
    branchId,
    { endpointType: 'read_write', settings: command.endpoint },
    context,
  );
  const draft = new CommandDraft(state, context);
  draft.push(
    {
      type: 'ProjectCreated',
      projectId,
      name: command.name ?? projectId,
      regionId,
      defaultBranchId: branchId,
      plan: context.profile.plan,
      pgVersion: command.pgVersion ?? 17,
      historyRetentionSeconds: command.historyRetentionSeconds ?? 86_400,
    },
    {
      type: 'BranchCreated',
      projectId,
      branchId,
      name: command.branchName ?? 'main',
      isDefault: true,
      currentState: 'init',
      roles: [{ name: OWNER_ROLE, password: drawPassword(context) }],
      databases: [
        {
          id: (drawDatabaseIds(context, undefined, 1) as [number])[0],
          name: DEFAULT_DATABASE,
          ownerName: OWNER_ROLE,
        },
      ],
    },
    created,
  );
  const plan: PlannedOperation[] = [
    {
      action: 'create_timeline' as const,
      branchId,
      latency: 'create_timeline' as const,
      finished: [{ kind: 'branchReady' as const }],
    },
  ];
  const next = startOrPark(created);
  draft.push(...next.parked);
  if (next.start !== undefined) plan.push(next.start);
  recordOperations(draft, projectId, plan);
  firstCheck(draft, projectId, branchId);
  return ok(draft.events);
};
