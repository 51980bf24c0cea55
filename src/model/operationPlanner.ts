/**
 * Builds the events that record operations: one that runs at once, and chains where each waits for
 * the one before it. Durations are drawn here, so replay never draws.
 */
import type { ActionEffects, ComputeEffect, OperationAction } from '../domain/operationAction.js';
import { ACTION_EFFECTS } from '../domain/operationAction.js';
import type { LatencyProfile } from '../domain/profile.js';
import { newId } from '../core/ids.js';
import type { Unstamped } from '../engine/loggedEvent.js';
import type { ComputeStateChanged, DomainEvent, OperationCreated } from './events.js';
import type { ModelContext } from './decideContext.js';
import type { EndpointState } from './state.js';

/** One operation to record. */
export interface PlannedOperation {
  readonly action: OperationAction;
  readonly branchId: string;
  readonly endpointId?: string;
  /** Which latency range its duration is drawn from (defaults to the action's own). */
  readonly latency: keyof LatencyProfile;
}

/**
 * Events recording `plan` as a chain: the first `running`, each next one `scheduling` behind the one
 * before it. Compute effects of the first one starting are included.
 */
export function recordOperations(
  projectId: string,
  plan: readonly PlannedOperation[],
  context: ModelContext,
  endpoints: Readonly<Record<string, EndpointState>>,
): Unstamped<DomainEvent>[] {
  const events: Unstamped<DomainEvent>[] = [];
  let previousId: string | undefined;
  for (const step of plan) {
    const operationId = newId.operation(context.random('ids'));
    const [min, max] = context.profile.latency[step.latency];
    const created: Unstamped<OperationCreated> = {
      type: 'OperationCreated',
      projectId,
      operationId,
      action: step.action,
      branchId: step.branchId,
      ...(step.endpointId === undefined ? {} : { endpointId: step.endpointId }),
      status: previousId === undefined ? 'running' : 'scheduling',
      durationMs: context.random('latency').int(min, max),
      ...(previousId === undefined ? {} : { afterId: previousId }),
    };
    events.push(created);
    if (previousId === undefined) {
      const change = phaseEffect(endpoints, step, 'onRunning');
      if (change !== undefined) events.push(change);
    }
    previousId = operationId;
  }
  return events;
}

/**
 * The event applying the effect an operation has on its compute when it enters `phase`, or
 * `undefined` when it has no compute, no such effect, or the effect would change nothing.
 */
export function phaseEffect(
  endpoints: Readonly<Record<string, EndpointState>>,
  operation: { readonly action: OperationAction; readonly endpointId?: string },
  phase: keyof ActionEffects,
): Unstamped<ComputeStateChanged> | undefined {
  const endpoint = operation.endpointId === undefined ? undefined : endpoints[operation.endpointId];
  const effect = ACTION_EFFECTS[operation.action]?.[phase];
  return endpoint === undefined || effect === undefined
    ? undefined
    : computeEffect(endpoint, effect);
}

/** The event applying an operation's effect to its compute, or `undefined` when nothing would change. */
export function computeEffect(
  endpoint: EndpointState,
  effect: ComputeEffect,
): Unstamped<ComputeStateChanged> | undefined {
  const current = effect.current ?? endpoint.currentState;
  if (current === endpoint.currentState && effect.pending === (endpoint.pendingState ?? null))
    return undefined;
  return {
    type: 'ComputeStateChanged',
    projectId: endpoint.projectId,
    endpointId: endpoint.id,
    currentState: current,
    pendingState: effect.pending,
  };
}
