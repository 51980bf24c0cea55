/**
 * Carrying out the effects an operation carries as data, at the moment they apply: compute state
 * changes, dropped and opened connections, a branch becoming ready, storage attached or detached, a
 * compute woken again for the connections waiting for it.
 */
import { isDown, type ComputeState } from '../domain/computeState.js';
import { releaseAt } from '../domain/computeRelease.js';
import { SQL_STATES } from '../domain/sqlState.js';
import { dropConnections, openWaiting, waitingConnections } from './connectionEvents.js';
import type { ModelContext, Pending } from './decideContext.js';
import type { OperationEffect } from './operationEffect.js';
import {
  hasUnfinished,
  recordOperations,
  startPlan,
  type OperationTarget,
} from './operationPlanner.js';
import type { EndpointState, SimState } from './state.js';

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
        if (effect.whenDown === true && !isDown(now.current, now.pending ?? undefined)) break;
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
            ...dropConnections(
              state,
              endpoint.projectId,
              endpoint.id,
              SQL_STATES.terminated,
              'open',
            ),
          );
        break;
      case 'openWaiting':
        if (endpoint !== undefined) events.push(...openWaiting(state, endpoint));
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
      case 'wakeIfWaiting': {
        if (
          endpoint === undefined ||
          endpoint.disabled ||
          waitingConnections(state, endpoint.id).length === 0
        )
          break;
        if (project !== undefined && hasUnfinished(project, 'startsCompute', endpoint.id)) break;
        const plan = [startPlan(endpoint.branchId, endpoint.id, 'wake_compute')];
        events.push(
          ...recordOperations(state, endpoint.projectId, plan, context, [...prior, ...events])
            .events,
        );
        break;
      }
    }
  }
  return events;
}

/** A compute's current and pending state once `events` (decided, not yet applied) apply. */
export function computeStateAfter(
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
