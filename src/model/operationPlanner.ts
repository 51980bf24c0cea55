/**
 * Recording operations and carrying out their effects. A request records a chain: the first
 * operation `running`, each next one `scheduling` behind the one before. Each operation carries its
 * effects as data; here they become events at the moment they apply, against the state of then.
 */
import { newId } from '../core/ids.js';
import type { ComputeState } from '../domain/computeState.js';
import type { OperationAction } from '../domain/operationAction.js';
import type { LatencyProfile } from '../domain/profile.js';
import { releaseAt } from '../domain/computeRelease.js';
import { SQL_STATES, type SqlError } from '../domain/sqlState.js';
import type { Unstamped } from '../engine/loggedEvent.js';
import type { ModelContext, Pending } from './decideContext.js';
import type { OperationCreated } from './events.js';
import type { OperationEffect } from './operationEffect.js';
import type { EndpointState, SimState } from './state.js';

/** One operation to record. */
export interface PlannedOperation {
  readonly action: OperationAction;
  readonly branchId: string;
  readonly endpointId?: string;
  /** Which latency range its duration is drawn from. */
  readonly latency: keyof LatencyProfile;
  readonly running?: readonly OperationEffect[];
  readonly finished?: readonly OperationEffect[];
}

/** Where an operation applies: its project, branch and compute. */
export interface OperationTarget {
  readonly projectId: string;
  readonly branchId: string;
  readonly endpointId?: string;
}

/**
 * Events recording `plan` as a chain, with the running-phase effects of the first operation. Returns
 * the events and the ids of the recorded operations, in order.
 */
export function recordOperations(
  state: SimState,
  projectId: string,
  plan: readonly PlannedOperation[],
  context: ModelContext,
  prior: Pending = [],
): { events: Pending; operationIds: string[] } {
  const events: Pending = [];
  const operationIds: string[] = [];
  let previousId: string | undefined;
  for (const step of withReattach(state, projectId, plan, prior)) {
    const operationId = newId.operation(context.random('ids'));
    const created: Unstamped<OperationCreated> = {
      type: 'OperationCreated',
      projectId,
      operationId,
      action: step.action,
      branchId: step.branchId,
      ...(step.endpointId === undefined ? {} : { endpointId: step.endpointId }),
      status: previousId === undefined ? 'running' : 'scheduling',
      durationMs: drawDuration(context, step.latency),
      ...(previousId === undefined ? {} : { afterId: previousId }),
      effects: { running: step.running ?? [], finished: step.finished ?? [] },
    };
    events.push(created);
    if (previousId === undefined) {
      events.push(
        ...effectEvents(state, { projectId, ...step }, step.running ?? [], context, [
          ...prior,
          ...events,
        ]),
      );
    }
    operationIds.push(operationId);
    previousId = operationId;
  }
  return { events, operationIds };
}

/** A duration drawn from a latency range of the profile. */
export function drawDuration(context: ModelContext, latency: keyof LatencyProfile): number {
  const [min, max] = context.profile.latency[latency];
  return context.random('latency').int(min, max);
}

/** The plan of a compute start: pending active, then active with its waiting connections opened. */
export function startPlan(
  branchId: string,
  endpointId: string,
  latency: keyof LatencyProfile,
): PlannedOperation {
  return {
    action: 'start_compute',
    branchId,
    endpointId,
    latency,
    running: [{ kind: 'computeState', pending: 'active' }],
    finished: [{ kind: 'computeState', current: 'active', pending: null }, { kind: 'openWaiting' }],
  };
}

/** The plan of a compute suspend: connections dropped, pending idle, then idle. */
export function suspendPlan(branchId: string, endpointId: string): PlannedOperation {
  return {
    action: 'suspend_compute',
    branchId,
    endpointId,
    latency: 'suspend_compute',
    running: [{ kind: 'dropConnections' }, { kind: 'computeState', pending: 'idle' }],
    finished: [{ kind: 'computeState', current: 'idle', pending: null }, { kind: 'wakeIfWaiting' }],
  };
}

/**
 * The events carrying out `effects` of an operation on `target`, against `state` as changed by the
 * `prior` events decided in the same command (a start that follows a finished suspend sees it idle).
 */
export function effectEvents(
  state: SimState,
  target: OperationTarget,
  effects: readonly OperationEffect[],
  context: ModelContext,
  prior: Pending = [],
): Pending {
  const events: Pending = [];
  const project = state.projects[target.projectId];
  const endpoint =
    target.endpointId === undefined ? undefined : project?.endpoints[target.endpointId];
  for (const effect of effects) {
    switch (effect.kind) {
      case 'computeState': {
        if (endpoint === undefined) break;
        const now = computeStateAfter(endpoint, [...prior, ...events]);
        const current = effect.current ?? now.current;
        if (current === now.current && effect.pending === now.pending) break;
        const starts = current === 'active' && now.current !== 'active';
        events.push({
          type: 'ComputeStateChanged',
          projectId: endpoint.projectId,
          endpointId: endpoint.id,
          currentState: current,
          pendingState: effect.pending,
          ...(starts ? { releaseVersion: releaseAt(context.profile.releases, context.now) } : {}),
        });
        break;
      }
      case 'dropConnections':
        if (endpoint !== undefined)
          events.push(
            ...dropConnections(state, endpoint.projectId, endpoint.id, SQL_STATES.terminated),
          );
        break;
      case 'openWaiting':
        if (endpoint === undefined) break;
        for (const connection of waitingConnections(state, endpoint.id)) {
          events.push({
            type: 'ConnectionOpened',
            connectionId: connection.id,
            projectId: endpoint.projectId,
            branchId: endpoint.branchId,
            endpointId: endpoint.id,
            pooled: connection.pooled,
            tracked: connection.tracked,
          });
        }
        break;
      case 'branchReady': {
        const branch = project?.branches[target.branchId];
        if (branch !== undefined && branch.currentState !== 'ready') {
          events.push({
            type: 'BranchStateChanged',
            projectId: branch.projectId,
            branchId: branch.id,
            currentState: 'ready',
          });
        }
        break;
      }
      case 'tenantAttached':
        events.push({
          type: 'TenantAttachmentChanged',
          projectId: target.projectId,
          attached: effect.attached,
        });
        break;
      case 'wakeIfWaiting':
        if (
          endpoint === undefined ||
          endpoint.disabled ||
          waitingConnections(state, endpoint.id).length === 0
        )
          break;
        events.push(
          ...recordOperations(
            state,
            endpoint.projectId,
            [startPlan(endpoint.branchId, endpoint.id, 'wake_compute')],
            context,
            [...prior, ...events],
          ).events,
        );
        break;
    }
  }
  return events;
}

/**
 * The plan, preceded by a `tenant_reattach` when the project's storage is detached and no reattach
 * has been decided yet in this command: whatever needs the project waits for its storage first.
 */
function withReattach(
  state: SimState,
  projectId: string,
  plan: readonly PlannedOperation[],
  prior: Pending,
): readonly PlannedOperation[] {
  const project = state.projects[projectId];
  if (project === undefined || !project.detached) return plan;
  if (plan[0]?.action === 'tenant_reattach') return plan;
  if (prior.some((e) => e.type === 'OperationCreated' && e.action === 'tenant_reattach'))
    return plan;
  const reattach: PlannedOperation = {
    action: 'tenant_reattach',
    branchId: project.defaultBranchId,
    latency: 'tenant_reattach',
    finished: [{ kind: 'tenantAttached', attached: true }],
  };
  return [reattach, ...plan];
}

/** A compute's current and pending state once `events` (decided, not yet applied) apply. */
function computeStateAfter(
  endpoint: EndpointState,
  events: Pending,
): { current: ComputeState; pending: ComputeState | null } {
  let current = endpoint.currentState;
  let pending: ComputeState | null = endpoint.pendingState ?? null;
  for (const event of events) {
    if (event.type === 'ComputeStateChanged' && event.endpointId === endpoint.id) {
      current = event.currentState;
      pending = event.pendingState;
    }
  }
  return { current, pending };
}

/** The event terminating every live connection of a compute, or none when it has none. */
export function dropConnections(
  state: SimState,
  projectId: string,
  endpointId: string,
  why: SqlError,
): Pending {
  const live = state.liveConnections[endpointId];
  if (live === undefined) return [];
  const connectionIds = Object.keys(live);
  if (connectionIds.length === 0) return [];
  return [
    {
      type: 'ConnectionsDropped',
      projectId,
      endpointId,
      connectionIds,
      sqlstate: why.sqlstate,
      message: why.message,
    },
  ];
}

/** Connections waiting for a compute to start. */
export function waitingConnections(state: SimState, endpointId: string) {
  const live = state.liveConnections[endpointId];
  if (live === undefined) return [];
  return Object.keys(live)
    .map((id) => state.connections[id])
    .filter((c): c is NonNullable<typeof c> => c !== undefined && c.status === 'connecting');
}
