/**
 * What the operation events mean (see eventDeclaration.ts): an operation created, started, failed
 * and retried, ended (finished, error, cancelled), and ended operations pruned; for each, how it
 * changes the state and the timers it arms.
 */
import { current, isDraft, type Draft } from 'immer';
import { isEmpty } from '../core/isEmpty.js';
import { operationKind } from '../domain/operationKinds.js';
import { isTerminal } from '../domain/operationStatus.js';
import type { Arm } from '../engine/decider.js';
import type { Profile } from '../domain/profile.js';
import { clearField } from './clearField.js';
import { armDetach, armSuspend } from './computeTimers.js';
import { ENDED_EFFECTS } from './endedOperations.js';
import type { Declarations, EventOfKind } from './eventDeclaration.js';
import { operationIn } from './operationStore.js';
import type { OperationAction } from '../domain/operationAction.js';
import type { Unstamped } from '../engine/loggedEvent.js';
import type { DomainEvent } from './events.js';
import type { OperationState, SimState } from './state.js';
import type { StateWriter } from './stateWriter.js';
import type { TimerCommand } from './timers.js';
import { seconds } from './narrationWords.js';

/** The ids of the operations of project `projectId` that `events` created, in order. */
export function operationsCreated(
  events: readonly Unstamped<DomainEvent>[],
  projectId: string,
): string[] {
  const ids: string[] = [];
  for (const event of events)
    if (event.type === 'OperationCreated' && event.projectId === projectId)
      ids.push(event.operationId);
  return ids;
}

/** The id of the first operation `events` created whose action passes `test`, if any. */
export function firstOperationCreated(
  events: readonly Unstamped<DomainEvent>[],
  test: (action: OperationAction) => boolean,
): string | undefined {
  for (const event of events)
    if (event.type === 'OperationCreated' && test(event.action)) return event.operationId;
  return undefined;
}

/** The operation events' declarations. */
export const OPERATION_EVENTS: Declarations<
  | 'OperationCreated'
  | 'OperationStarted'
  | 'OperationFinished'
  | 'OperationFailed'
  | 'OperationErrored'
  | 'OperationCancelled'
  | 'OperationsPruned'
> = {
  OperationCreated: {
    apply(write, e) {
      const project = write.project(e.projectId);
      const sortKey = Math.max(e.at * 1000, project.lastSortKey + 1);
      project.lastSortKey = sortKey;
      write.put(e.projectId, 'operations', e.operationId, operationRecord(e, sortKey));
      write.put(e.projectId, 'pendingOperations', e.operationId, true);
      if (e.afterId !== undefined) {
        const previous = write.entryIfAny(e.projectId, 'operations', e.afterId);
        if (previous !== undefined) previous.nextIds = [...(previous.nextIds ?? []), e.operationId];
      }
    },
    timers(e, _state, _profile, arm) {
      const { projectId, operationId } = e;
      if (e.status === 'running')
        arm(e.at + e.durationMs, { type: 'CompleteOperation', projectId, operationId });
      else if (e.startAt !== undefined)
        arm(e.startAt, { type: 'StartDelayedOperation', projectId, operationId });
    },
    narrate(e) {
      const on = e.endpointId === undefined ? '' : ` on ${e.endpointId}`;
      const waits = e.status === 'scheduling' ? ', waits for the one before' : '';
      return `operation ${e.action}${on}: ${e.status} (will take ${seconds(e.durationMs)}${waits})`;
    },
  },

  OperationStarted: {
    apply(write, e) {
      const started = write.entry(e.projectId, 'operations', e.operationId);
      started.status = 'running';
      started.startedAt = e.at;
      started.durationMs = e.durationMs;
      started.updatedAt = e.at;
      clearField(started, 'retryAt');
    },
    timers(e, _state, _profile, arm) {
      const { projectId, operationId } = e;
      arm(e.at + e.durationMs, { type: 'CompleteOperation', projectId, operationId });
    },
    narrate: (e, names) => `${names.operation(e.operationId)}: running`,
  },

  OperationFinished: {
    apply(write, e) {
      settle(write, e.projectId, e.operationId, e.at, 'finished');
    },
    timers: armAfterEnd,
    narrate: (e, names) => `${names.operation(e.operationId)}: finished`,
  },

  OperationFailed: {
    apply(write, e) {
      const failed = write.entry(e.projectId, 'operations', e.operationId);
      failed.status = 'failed';
      failed.failuresCount++;
      failed.error = e.error;
      failed.retryAt = e.retryAt;
      failed.updatedAt = e.at;
    },
    timers(e, _state, _profile, arm) {
      const { projectId, operationId } = e;
      arm(e.retryAt, { type: 'RetryOperation', projectId, operationId });
    },
    narrate: (e, names) => `${names.operation(e.operationId)}: failed (${e.error}), retried later`,
  },

  OperationErrored: {
    apply(write, e) {
      const errored = settle(write, e.projectId, e.operationId, e.at, 'error', e.error);
      if (e.endpointId === undefined || !operationKind(errored.action).releasesCompute) return;
      const compute = write.entryIfAny(e.projectId, 'endpoints', e.endpointId);
      if (compute !== undefined) compute.failedSuspends = (compute.failedSuspends ?? 0) + 1;
    },
    timers: armAfterEnd,
    narrate: (e, names) => `${names.operation(e.operationId)}: error (${e.error}), giving up`,
  },

  OperationCancelled: {
    apply(write, e) {
      settle(write, e.projectId, e.operationId, e.at, 'cancelled');
    },
    timers: armAfterEnd,
    narrate: (e, names) => `${names.operation(e.operationId)}: cancelled`,
  },

  OperationsPruned: {
    apply(write, e) {
      const project = write.state.projects[e.projectId];
      if (project === undefined) return;
      write.pruneArchived(e.projectId, e.before);
      const pruned: string[] = [];
      // Operations are in creation order, and one created at `before` or later was updated no
      // earlier: the scan stops there, so a daily pruning that finds nothing old costs one look,
      // not one per operation kept.
      for (const id in project.operations) {
        const kept = project.operations[id] as OperationState;
        if (kept.createdAt >= e.before) break;
        if (isTerminal(kept.status) && kept.updatedAt < e.before) pruned.push(id);
      }
      for (const id of pruned) write.remove(e.projectId, 'operations', id);
    },
    timers(e, state, _profile, arm) {
      const recoveredAt = state.projects[e.projectId]?.recoveredAt;
      const timer = { type: 'PruneOperations', projectId: e.projectId } as const;
      arm(e.nextAt, recoveredAt === undefined ? timer : { ...timer, recoveredAt }, true);
    },
    narrate: () => undefined,
  },
};

/**
 * The checks an ended operation re-arms. A suspend is skipped while operations lock the compute:
 * re-check once one settles. A detach is skipped while operations are unfinished: re-check once the
 * last one settles (not after a detach itself, which would retry a failing detach at once, forever).
 */
function armAfterEnd(
  e: EventOfKind<'OperationFinished' | 'OperationErrored' | 'OperationCancelled'>,
  state: SimState,
  profile: Profile,
  arm: Arm<TimerCommand>,
): void {
  const project = state.projects[e.projectId];
  const ended = project === undefined ? undefined : operationIn(project, e.operationId);
  const endpointId = ended?.endpointId;
  if (endpointId !== undefined) armSuspend(state, e.projectId, endpointId, e.at, profile, arm);
  const action = ended?.action;
  const pending = project?.pendingOperations;
  const settled = pending === undefined || isEmpty(pending);
  if (settled && (action === undefined || !operationKind(action).detachesStorage))
    armDetach(state, e.projectId, e.at, profile, arm);
}

/**
 * Ends an operation: it gets its terminal status and is frozen where it stands, so published
 * snapshots share it instead of copying it (ended operations never change again). Frozen in place,
 * not copied: a copy per operation was a second allocation, and left the first behind as old garbage.
 */
function settle(
  write: StateWriter,
  projectId: string,
  operationId: string,
  at: number,
  status: 'finished' | 'error' | 'cancelled',
  error?: string,
): OperationState {
  const ended = write.entry(projectId, 'operations', operationId);
  ended.status = status;
  if (error !== undefined) {
    ended.failuresCount++;
    ended.error = error;
  }
  ended.updatedAt = at;
  ended.totalDurationMs = at - ended.createdAt;
  if (ended.retryAt !== undefined) clearField(ended, 'retryAt');
  ended.effects = ENDED_EFFECTS as Draft<OperationState['effects']>;
  write.remove(projectId, 'pendingOperations', operationId);
  // A draft (the immer oracle) is frozen by immer as it finishes; a plain working object here.
  if (isDraft(ended)) return current<OperationState>(ended);
  if (ended.nextIds !== undefined) Object.freeze(ended.nextIds);
  const frozen = Object.freeze(ended) as OperationState;
  write.archiveEnded(projectId, frozen);
  return frozen;
}

/**
 * A new operation's record, created at `e.at` with sort key `sortKey`. Each of its four shapes is
 * one object literal with every field in place (the keys in the order the state has always had
 * them), so the record holds its fields in the object itself: a fleet's month keeps millions of
 * them, and one built field by field also carries a separately allocated, slack-sized store for the
 * fields past the first three (what this buys: docs/performance.md).
 */
function operationRecord(e: EventOfKind<'OperationCreated'>, sortKey: number): OperationState {
  const startedAt = e.status === 'running' ? e.at : undefined;
  if (e.endpointId === undefined) {
    if (startedAt === undefined)
      return {
        id: e.operationId,
        projectId: e.projectId,
        branchId: e.branchId,
        action: e.action,
        status: e.status,
        failuresCount: 0,
        createdAt: e.at,
        updatedAt: e.at,
        sortKey,
        durationMs: e.durationMs,
        latency: e.latency,
        totalDurationMs: 0,
        effects: e.effects,
      };
    return {
      id: e.operationId,
      projectId: e.projectId,
      branchId: e.branchId,
      action: e.action,
      status: e.status,
      failuresCount: 0,
      createdAt: e.at,
      updatedAt: e.at,
      sortKey,
      durationMs: e.durationMs,
      latency: e.latency,
      startedAt,
      totalDurationMs: 0,
      effects: e.effects,
    };
  }
  if (startedAt === undefined)
    return {
      id: e.operationId,
      projectId: e.projectId,
      branchId: e.branchId,
      endpointId: e.endpointId,
      action: e.action,
      status: e.status,
      failuresCount: 0,
      createdAt: e.at,
      updatedAt: e.at,
      sortKey,
      durationMs: e.durationMs,
      latency: e.latency,
      totalDurationMs: 0,
      effects: e.effects,
    };
  return {
    id: e.operationId,
    projectId: e.projectId,
    branchId: e.branchId,
    endpointId: e.endpointId,
    action: e.action,
    status: e.status,
    failuresCount: 0,
    createdAt: e.at,
    updatedAt: e.at,
    sortKey,
    durationMs: e.durationMs,
    latency: e.latency,
    startedAt,
    totalDurationMs: 0,
    effects: e.effects,
  };
}
