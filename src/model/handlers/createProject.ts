/**
 * CreateProject: a project, its default branch, a primary read-write compute in `init` (pending
 * `active`), and the operations `create_timeline` (running) then `start_compute` (scheduling). The
 * default branch starts with a database (`neondb` unless named) and the role owning it
 * (`{database}_owner` unless named: `neondb_owner`).
 */
import { drawUniqueId, newId } from '../../core/ids.js';
import { err, ok } from '../../core/result.js';
import type { CreateProject } from '../commands.js';
import { CommandDraft } from '../commandDraft.js';
import type { Handler } from '../decideContext.js';
import { endpointCreated, settingsProblem, startOrPark } from '../newEndpoint.js';
import { recordOperations, type PlannedOperation } from '../operationPlanner.js';
import { firstCheck } from '../availabilityChecks.js';
import { DEFAULT_DATABASE, drawDatabaseIds, drawPassword } from '../branchConfig.js';
import { databaseNameProblem, roleNameProblem } from '../../domain/pgNames.js';
import { reject } from '../../domain/rejection.js';
import { BRANCH_READY } from '../effectLists.js';

/** Decides a project creation. */
export const createProject: Handler<CreateProject> = (state, command, context) => {
  const problem = settingsProblem(command.endpoint, context.profile.plan, context.profile.limits);
  if (problem !== undefined) return err(problem);
  const databaseName = command.databaseName ?? DEFAULT_DATABASE;
  const roleName = command.roleName ?? `${databaseName}_owner`;
  const nameProblem = databaseNameProblem(databaseName) ?? roleNameProblem(roleName);
  if (nameProblem !== undefined) return err(reject('invalid_input', nameProblem));
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
  draft.pushAll([
    {
      type: 'ProjectCreated',
      projectId,
      name: command.name ?? projectId,
      regionId,
      defaultBranchId: branchId,
      plan: context.profile.plan,
      pgVersion: command.pgVersion ?? 17,
      historyRetentionSeconds: command.historyRetentionSeconds ?? 86_400,
      ...(command.defaultEndpointSettings === undefined
        ? {}
        : { defaultEndpointSettings: command.defaultEndpointSettings }),
    },
    {
      type: 'BranchCreated',
      projectId,
      branchId,
      name: command.branchName ?? 'main',
      isDefault: true,
      currentState: 'init',
      roles: [{ name: roleName, password: drawPassword(context) }],
      databases: [
        {
          id: (drawDatabaseIds(context, undefined, 1) as [number])[0],
          name: databaseName,
          ownerName: roleName,
        },
      ],
    },
    created,
  ]);
  const plan: PlannedOperation[] = [
    {
      action: 'create_timeline' as const,
      branchId,
      latency: 'create_timeline' as const,
      finished: BRANCH_READY,
    },
  ];
  const next = startOrPark(created);
  draft.pushAll(next.parked);
  if (next.start !== undefined) plan.push(next.start);
  recordOperations(draft, projectId, plan);
  firstCheck(draft, projectId, branchId);
  return ok(draft.events);
};
