/**
 * CreateProject: a project, its default branch `main`, a primary read-write compute in `init`
 * (pending `active`), and the operations `create_timeline` (running) then `start_compute`.
 */
import { drawUniqueId, newId } from '../../core/ids.js';
import { ok } from '../../core/result.js';
import type { Unstamped } from '../../engine/loggedEvent.js';
import type { CreateProject } from '../commands.js';
import type { Handler } from '../decideContext.js';
import type { DomainEvent } from '../events.js';
import { recordOperations } from '../operationPlanner.js';

/** Decides a project creation. */
export const createProject: Handler<CreateProject> = (state, command, context) => {
  const ids = context.random('ids');
  const projectId = drawUniqueId(newId.project, ids, (id) => id in state.projects);
  const branchId = newId.branch(ids);
  const endpointId = drawUniqueId(newId.endpoint, ids, (id) => id in state.endpointOwners);
  const regionId = command.regionId ?? context.profile.regionId;
  const region = regionId.replace(/^[a-z]+-/, '');
  const events: Unstamped<DomainEvent>[] = [
    {
      type: 'ProjectCreated',
      projectId,
      name: command.name ?? projectId,
      regionId,
      defaultBranchId: branchId,
    },
    { type: 'BranchCreated', projectId, branchId, name: 'main', isDefault: true },
    {
      type: 'EndpointCreated',
      projectId,
      branchId,
      endpointId,
      endpointType: 'read_write',
      host: `${endpointId}.${region}.${context.profile.hostDomain}`,
      proxyHost: `${region}.${context.profile.hostDomain}`,
      regionId,
      minCu: 0.25,
      maxCu: 0.25,
      suspendTimeoutSeconds: 0,
      poolerEnabled: false,
      poolerMode: 'transaction',
      disabled: false,
      creationSource: 'console',
      provisioner: 'k8s-neonvm',
    },
  ];
  events.push(
    ...recordOperations(
      projectId,
      [
        { action: 'create_timeline', branchId, latency: 'create_timeline' },
        { action: 'start_compute', branchId, endpointId, latency: 'start_compute' },
      ],
      context,
      {},
    ),
  );
  return ok(events);
};
