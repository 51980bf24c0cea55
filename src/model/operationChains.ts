/**
 * How the operations of a chain hand over: the next one that still waits starts when the one before
 * it finishes (cancelled ones are skipped); an operation that gives up takes its followers with it;
 * operations cancelled because their object goes away leave the chain without stopping the rest. In
 * every case the computes involved are left usable: pending state cleared, waiting connections
 * opened (compute up) or refused (compute down).
 */
import { SQL_STATES } from '../domain/sqlState.js';
import { openWaiting, refuseWaiting } from './connectionEvents.js';
import type { ModelContext, Pending } from './decideContext.js';
import { computeStateAfter, effectEvents } from './operationEffects.js';
import type { OperationState, ProjectState, SimState } from './state.js';

/** The first operation after `operation` in its chain still waiting to run, skipping cancelled ones. */
export function nextRunnable(
  project: ProjectState,
  operation: OperationState,
  leaving: ReadonlySet<string> = new Set(),
): OperationState | undefined {
  for (let id = operation.nextId; id !== undefined;) {
    const next = project.operations[id];
    if (next === undefined) return undefined;
    if (!leaving.has(id) && next.status === 'scheduling') return next;
    if (!leaving.has(id) && next.status !== 'cancelled') return undefined;
    id = next.nextId;
  }
  return undefined;
}

/** Starts a `scheduling` operation, carrying out its running-phase effects. */
export function startNext(
  state: SimState,
  next: OperationState,
  context: ModelContext,
  prior: Pending,
): Pending {
  return [
    {
      type: 'OperationStarted',
      projectId: next.projectId,
      operationId: next.id,
      durationMs: next.durationMs,
    },
    ...effectEvents(state, next, next.effects.running, context, prior),
  ];
}

/**
 * Cancels the unfinished operations that `matches` (their compute or branch is going away). They leave
 * their chains: an operation waiting behind a cancelled running one starts now.
 */
export function cancelOperations(
  state: SimState,
  project: ProjectState,
  matches: (operation: OperationState) => boolean,
  context: ModelContext,
): Pending {
  const leaving = new Set(
    Object.keys(project.pendingOperations).filter((id) => {
      const operation = project.operations[id];
      return operation !== undefined && matches(operation);
    }),
  );
  const events: Pending = [...leaving].map((operationId) => ({
    type: 'OperationCancelled' as const,
    projectId: project.id,
    operationId,
  }));
  for (const id of leaving) {
    const operation = project.operations[id] as OperationState;
    if (operation.status === 'scheduling') continue;
    const next = nextRunnable(project, operation, leaving);
    if (next !== undefined) events.push(...startNext(state, next, context, events));
  }
  return events;
}

/**
 * An operation gives up (status `error`): the operations behind it are cancelled, and every compute
 * they concerned is settled.
 */
export function giveUp(
  state: SimState,
  project: ProjectState,
  operation: OperationState,
  error: string,
): Pending {
  const events: Pending = [
    { type: 'OperationErrored', projectId: project.id, operationId: operation.id, error },
  ];
  const concerned = new Set<string>();
  if (operation.endpointId !== undefined) concerned.add(operation.endpointId);
  for (let id = operation.nextId; id !== undefined;) {
    const follower: OperationState | undefined = project.operations[id];
    if (follower === undefined) break;
    if (follower.status === 'scheduling') {
      events.push({ type: 'OperationCancelled', projectId: project.id, operationId: id });
      if (follower.endpointId !== undefined) concerned.add(follower.endpointId);
    }
    id = follower.nextId;
  }
  for (const endpointId of concerned)
    events.push(...settleCompute(state, project, endpointId, events));
  return events;
}

/** Leaves a compute usable after its chain ended early: pending state cleared, waiting connections settled. */
function settleCompute(
  state: SimState,
  project: ProjectState,
  endpointId: string,
  prior: Pending,
): Pending {
  const endpoint = project.endpoints[endpointId];
  if (endpoint === undefined) return [];
  const events: Pending = [];
  const now = computeStateAfter(endpoint, prior);
  if (now.pending !== null) {
    events.push({
      type: 'ComputeStateChanged',
      projectId: project.id,
      endpointId,
      currentState: now.current,
      pendingState: null,
    });
  }
  events.push(
    ...(now.current === 'active'
      ? openWaiting(state, endpoint)
      : refuseWaiting(state, endpoint, SQL_STATES.startFailed)),
  );
  return events;
}
