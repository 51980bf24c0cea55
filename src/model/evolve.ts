/**
 * evolve: applies one event to an immer draft of the state. Total and boring: every value it needs
 * is in the event, and it never validates (decide already did).
 */
import type { Draft } from 'immer';
import type { DomainEvent } from './events.js';
import type { SimState } from './state.js';

type EventHandlers = {
  readonly [K in DomainEvent['type']]: (
    draft: Draft<SimState>,
    event: Extract<DomainEvent, { type: K }>,
  ) => void;
};

const HANDLERS: EventHandlers = {
  ProjectCreated(draft, e) {
    draft.projects[e.projectId] = {
      id: e.projectId,
      name: e.name,
      regionId: e.regionId,
      defaultBranchId: e.defaultBranchId,
      createdAt: e.at,
      updatedAt: e.at,
      branches: {},
      endpoints: {},
      operations: {},
    };
  },

  BranchCreated(draft, e) {
    const project = projectOf(draft, e.projectId);
    project.branches[e.branchId] = {
      id: e.branchId,
      projectId: e.projectId,
      name: e.name,
      ...(e.parentId === undefined ? {} : { parentId: e.parentId }),
      isDefault: e.isDefault,
      createdAt: e.at,
      updatedAt: e.at,
    };
  },

  EndpointCreated(draft, e) {
    const project = projectOf(draft, e.projectId);
    project.endpoints[e.endpointId] = {
      id: e.endpointId,
      projectId: e.projectId,
      branchId: e.branchId,
      type: e.endpointType,
      ...(e.name === undefined ? {} : { name: e.name }),
      host: e.host,
      proxyHost: e.proxyHost,
      regionId: e.regionId,
      minCu: e.minCu,
      maxCu: e.maxCu,
      currentState: 'init',
      pendingState: 'active',
      suspendTimeoutSeconds: e.suspendTimeoutSeconds,
      poolerEnabled: e.poolerEnabled,
      poolerMode: e.poolerMode,
      disabled: e.disabled,
      passwordlessAccess: true,
      pgSettings: {},
      creationSource: e.creationSource,
      provisioner: e.provisioner,
      createdAt: e.at,
      updatedAt: e.at,
    };
    draft.endpointOwners[e.endpointId] = e.projectId;
  },

  OperationCreated(draft, e) {
    const project = projectOf(draft, e.projectId);
    project.operations[e.operationId] = {
      id: e.operationId,
      projectId: e.projectId,
      branchId: e.branchId,
      ...(e.endpointId === undefined ? {} : { endpointId: e.endpointId }),
      action: e.action,
      status: e.status,
      failuresCount: 0,
      createdAt: e.at,
      updatedAt: e.at,
      durationMs: e.durationMs,
      ...(e.status === 'running' ? { startedAt: e.at } : {}),
      totalDurationMs: 0,
    };
    if (e.afterId !== undefined) {
      const previous = project.operations[e.afterId];
      if (previous !== undefined) previous.nextId = e.operationId;
    }
  },

  OperationStarted(draft, e) {
    const operation = operationOf(draft, e.projectId, e.operationId);
    operation.status = 'running';
    operation.startedAt = e.at;
    operation.updatedAt = e.at;
  },

  OperationFinished(draft, e) {
    const operation = operationOf(draft, e.projectId, e.operationId);
    operation.status = 'finished';
    operation.updatedAt = e.at;
    operation.totalDurationMs = e.at - operation.createdAt;
  },

  ComputeStateChanged(draft, e) {
    const endpoint = projectOf(draft, e.projectId).endpoints[e.endpointId];
    if (endpoint === undefined)
      throw new Error(`no compute ${e.endpointId} in project ${e.projectId}`);
    const wasActive = endpoint.currentState === 'active';
    endpoint.currentState = e.currentState;
    if (e.pendingState === null) delete endpoint.pendingState;
    else endpoint.pendingState = e.pendingState;
    endpoint.updatedAt = e.at;
    if (e.currentState === 'active' && !wasActive) {
      endpoint.startedAt = e.at;
      endpoint.lastActive = e.at;
      endpoint.idleSince = e.at;
    } else if (e.currentState !== 'active' && wasActive) {
      endpoint.suspendedAt = e.at;
      delete endpoint.idleSince;
    }
  },
};

/** Applies `event` to `draft`. */
export function evolve(draft: Draft<SimState>, event: DomainEvent): void {
  const handler = HANDLERS[event.type] as (draft: Draft<SimState>, event: DomainEvent) => void;
  handler(draft, event);
}

function projectOf(draft: Draft<SimState>, projectId: string): Draft<SimState>['projects'][string] {
  const project = draft.projects[projectId];
  if (project === undefined) throw new Error(`no project ${projectId}`);
  return project;
}

function operationOf(draft: Draft<SimState>, projectId: string, operationId: string) {
  const operation = projectOf(draft, projectId).operations[operationId];
  if (operation === undefined)
    throw new Error(`no operation ${operationId} in project ${projectId}`);
  return operation;
}
