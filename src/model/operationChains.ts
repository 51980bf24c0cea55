/**
 * How the operations of a chain hand over: the next one that still waits starts when the one before
 * it finishes (cancelled ones are skipped); an operation that gives up takes its followers with it;
 * operations cancelled because their object goes away leave the chain without stopping the rest. In
 * every case the computes involved are left usable: pending state cleared, waiting connections
 * opened (compute up) or refused (compute down).
 */
import { SQL_STATES } from '../domain/sqlState.js';
import { operationKind } from '../domain/operationKinds.js';
import type { CommandDraft } from './commandDraft.js';
import { openWaiting, refuseWaiting, waitingConnections } from './connectionEvents.js';
import type { OperationEffect } from './operationEffect.js';
import { carryOut, wake } from './operationPlanner.js';
import type { OperationState, ProjectState } from './state.js';
import { operationIn } from './operationStore.js';
import { computeStateChanged } from './computeDeclarations.js';

const NONE_LEAVING: ReadonlySet<string> = new Set();

/**
 * The operations to start once `operation` leaves its chain: each follower still `scheduling`, and,
 * past a cancelled (or `leaving`) follower, the ones behind it.
 */
function runnableAfter(
  project: ProjectState,
  operation: OperationState,
  leaving: ReadonlySet<string> = NONE_LEAVING,
): OperationState[] {
  const runnable: OperationState[] = [];
  // Most operations have no followers: no set, list or iterator for them.
  if (operation.nextIds === undefined) return runnable;
  for (const id of operation.nextIds) {
    const next = operationIn(project, id);
    if (next === undefined) continue;
    if (leaving.has(id) || next.status === 'cancelled')
      runnable.push(...runnableAfter(project, next, leaving));
    else if (next.status === 'scheduling') runnable.push(next);
  }
  return runnable;
}

/** Starts every operation that waits for `operation` (see `runnableAfter`). */
export function startFollowers(
  draft: CommandDraft,
  project: ProjectState,
  operation: OperationState,
  leaving?: ReadonlySet<string>,
): void {
  for (const next of runnableAfter(project, operation, leaving)) startNext(draft, next);
}

/** Starts a `scheduling` operation, carrying out its running-phase effects. */
export function startNext(draft: CommandDraft, next: OperationState): void {
  draft.push({
    type: 'OperationStarted',
    projectId: next.projectId,
    operationId: next.id,
    durationMs: next.durationMs,
  });
  carryOut(draft, next, next.effects.running);
}

/**
 * Cancels the unfinished operations that `matches` (their compute or branch is going away). They leave
 * their chains: an operation waiting behind a cancelled running one starts now.
 */
export function cancelOperations(
  draft: CommandDraft,
  project: ProjectState,
  matches: (operation: OperationState) => boolean,
): void {
  const leaving = new Set(
    Object.keys(project.pendingOperations).filter((id) => {
      const operation = project.operations[id];
      return operation !== undefined && matches(operation);
    }),
  );
  for (const operationId of leaving)
    draft.push({ type: 'OperationCancelled', projectId: project.id, operationId });
  for (const id of leaving) {
    const operation = project.operations[id] as OperationState;
    if (operation.status === 'scheduling') continue;
    startFollowers(draft, project, operation, leaving);
  }
}

/**
 * An operation gives up (status `error`). A failed storage detach leaves storage attached, so the
 * reattach queued behind it is cancelled and the work behind that goes on. Any other failure cancels
 * every operation waiting behind it. Then each compute involved is settled (see `settleCompute`).
 */
export function giveUp(
  draft: CommandDraft,
  project: ProjectState,
  operation: OperationState,
  error: string,
): void {
  draft.push({
    type: 'OperationErrored',
    projectId: project.id,
    operationId: operation.id,
    ...(operation.endpointId === undefined ? {} : { endpointId: operation.endpointId }),
    error,
  });
  const cancel = (id: string) =>
    draft.push({ type: 'OperationCancelled', projectId: project.id, operationId: id });
  if (operationKind(operation.action).detachesStorage) {
    const reattaches = followers(project, operation).filter(
      (f) => operationKind(f.action).reattachesStorage && f.status === 'scheduling',
    );
    const leaving = new Set(reattaches.map((f) => f.id));
    leaving.forEach(cancel);
    startFollowers(draft, project, operation, leaving);
    return;
  }
  const cancelled = waitingBehind(project, operation);
  cancelled.forEach((f) => cancel(f.id));
  const concerned = new Set<string>();
  if (operation.endpointId !== undefined) concerned.add(operation.endpointId);
  for (const f of cancelled) if (f.endpointId !== undefined) concerned.add(f.endpointId);
  const ended = new Set([operation.id, ...cancelled.map((f) => f.id)]);
  for (const endpointId of concerned) {
    const changedState =
      endpointId === operation.endpointId &&
      operation.effects.running.some((effect) => effect.kind === 'computeState');
    const settle = {
      endpointId,
      changedState,
      ended,
      refuse: operationKind(operation.action).failureBlocksStart,
    };
    settleCompute(draft, project, settle);
  }
}

/** The direct followers of an operation. */
function followers(project: ProjectState, operation: OperationState): OperationState[] {
  return (operation.nextIds ?? [])
    .map((id) => operationIn(project, id))
    .filter((f): f is OperationState => f !== undefined);
}

/** Every operation still `scheduling` behind `operation`, however far down its chains. */
function waitingBehind(project: ProjectState, operation: OperationState): OperationState[] {
  const found: OperationState[] = [];
  for (const f of followers(project, operation)) {
    if (f.status === 'scheduling') found.push(f);
    found.push(...waitingBehind(project, f));
  }
  return found;
}

/** What a chain that ended early did to one compute. */
interface Settlement {
  readonly endpointId: string;
  /** The failed operation had set the compute's pending state (cleared, as is one nothing will end). */
  readonly changedState: boolean;
  /** Operations that end now (the failed one and those cancelled behind it). */
  readonly ended: ReadonlySet<string>;
  /** Clients waiting for the compute are refused (08006) when it is down, rather than woken for. */
  readonly refuse: boolean;
}

/**
 * Leaves a compute usable after a chain ended early. Its pending state is cleared if the failed
 * operation set it or no other unfinished operation on the compute changes its state (a running
 * check, for one, never will). Clients waiting for
 * it are left to another operation under way that will see to them (a start opens them, a suspend
 * wakes the compute again); otherwise they are let in (compute up), refused (down after a failure
 * that blocks starting, or disabled), or the compute is woken for them.
 */
function settleCompute(draft: CommandDraft, project: ProjectState, settlement: Settlement): void {
  const endpoint = project.endpoints[settlement.endpointId];
  if (endpoint === undefined) return;
  const others = Object.keys(project.pendingOperations)
    .filter((id) => !settlement.ended.has(id))
    .map((id) => project.operations[id])
    .filter((other) => other?.endpointId === endpoint.id);
  let now = draft.computeStateOf(endpoint);
  const changesState = (effect: OperationEffect) => effect.kind === 'computeState';
  const willEndPending = others.some(
    (other) =>
      other?.effects.running.some(changesState) === true ||
      other?.effects.finished.some(changesState) === true,
  );
  if (now.pending !== null && (settlement.changedState || !willEndPending)) {
    draft.push(computeStateChanged(project.id, endpoint.id, now.current, null));
    now = { current: now.current, pending: null };
  }
  if (waitingConnections(draft.state, endpoint.id).length === 0) return;
  const handledElsewhere = others.some((other) =>
    other?.effects.finished.some((e) => e.kind === 'openWaiting' || e.kind === 'wakeIfWaiting'),
  );
  if (handledElsewhere) return;
  if (now.current === 'active' && now.pending === null)
    draft.pushAll(openWaiting(draft.state, endpoint));
  else if (endpoint.disabled)
    draft.pushAll(refuseWaiting(draft.state, endpoint, SQL_STATES.endpointDisabled));
  else if (settlement.refuse || now.pending !== null)
    draft.pushAll(refuseWaiting(draft.state, endpoint, SQL_STATES.startFailed));
  else wake(draft, endpoint);
}
