/**
 * Creating a compute, shared by project, branch and compute creation: the rules a new compute must
 * follow and the event that records it.
 */
import { drawUniqueId, newId } from '../core/ids.js';
import { sizeRangeProblem } from '../domain/computeSize.js';
import { suspendTimeoutProblem } from '../domain/endpointDefaults.js';
import { planProblem, readReplicaProblem, type Plan } from '../domain/plan.js';
import type { LimitsProfile } from '../domain/profile.js';
import { reject, type Rejection } from '../domain/rejection.js';
import type { Unstamped } from '../engine/loggedEvent.js';
import type { NewEndpoint } from './commands.js';
import type { ModelContext, Pending } from './decideContext.js';
import { startPlan, type PlannedOperation } from './operationPlanner.js';
import type { EndpointCreated } from './computeEventTypes.js';
import type { EndpointSettings, SimState } from './state.js';
import { computeStateChanged } from './computeDeclarations.js';

/** Why these settings are not allowed (400), or `undefined`. */
export function settingsProblem(
  settings: EndpointSettings,
  plan: Plan,
  limits: LimitsProfile,
): Rejection | undefined {
  const problem =
    sizeRangeProblem(settings.minCu, settings.maxCu, limits) ??
    suspendTimeoutProblem(settings.suspendTimeoutSeconds) ??
    planProblem(
      plan,
      settings.minCu,
      settings.maxCu,
      settings.suspendTimeoutSeconds,
      limits.freePlanMaxCu,
    ) ??
    (settings.minCu !== settings.maxCu && settings.provisioner !== 'k8s-neonvm'
      ? 'autoscaling needs the k8s-neonvm provisioner'
      : undefined);
  return problem === undefined ? undefined : reject('invalid_input', problem);
}

/** A 400 when `adding` more read replicas would pass the plan's limit in the project. */
export function tooManyReplicas(
  state: SimState,
  projectId: string,
  adding: number,
  limits: LimitsProfile,
): Rejection | undefined {
  const project = state.projects[projectId];
  if (project === undefined || adding === 0) return undefined;
  const replicas = Object.values(project.endpoints).filter((e) => e.type === 'read_only').length;
  const problem = readReplicaProblem(
    project.plan,
    replicas + adding - 1,
    limits.freePlanMaxReadReplicas,
  );
  return problem === undefined ? undefined : reject('invalid_input', problem);
}

/** A 409 when the branch already has a read-write compute and another one would be added. */
export function secondReadWrite(
  state: SimState,
  projectId: string,
  branchId: string,
  except?: string,
): Rejection | undefined {
  const project = state.projects[projectId];
  if (project === undefined) return undefined;
  for (const endpoint of Object.values(project.endpoints)) {
    if (
      endpoint.branchId === branchId &&
      endpoint.type === 'read_write' &&
      endpoint.id !== except
    ) {
      return reject(
        'conflict',
        `branch ${branchId} already has a read_write endpoint (${endpoint.id}); a branch has at most one`,
      );
    }
  }
  return undefined;
}

/** The event creating a compute, with a fresh id and host names. */
export function endpointCreated(
  state: SimState,
  projectId: string,
  regionId: string,
  branchId: string,
  spec: NewEndpoint,
  context: ModelContext,
  drawnAlready: ReadonlySet<string> = new Set(),
): Unstamped<EndpointCreated> {
  const endpointId = drawUniqueId(
    newId.endpoint,
    context.random('ids'),
    (id) => id in state.endpointOwners || drawnAlready.has(id),
  );
  const region = regionId.replace(/^[a-z]+-/, '');
  return {
    type: 'EndpointCreated',
    projectId,
    branchId,
    endpointId,
    endpointType: spec.endpointType,
    host: `${endpointId}.${region}.${context.profile.hostDomain}`,
    proxyHost: `${region}.${context.profile.hostDomain}`,
    regionId,
    creationSource: 'console',
    ...spec.settings,
  };
}

/**
 * What follows a compute's creation: a `start_compute` to record, or, for a compute created disabled,
 * the event parking it idle (it is not started).
 */
export function startOrPark(created: Unstamped<EndpointCreated>): {
  parked: Pending;
  start?: PlannedOperation;
} {
  if (created.disabled) {
    return {
      parked: [computeStateChanged(created.projectId, created.endpointId, 'idle', null)],
    };
  }
  return { parked: [], start: startPlan(created.branchId, created.endpointId, 'start_compute') };
}
