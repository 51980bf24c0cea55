/**
 * What the operation events mean (see eventDeclaration.ts): an operation created, started, failed
 * and retried, ended (finished, error, cancelled), and ended operations pruned; for each, how it
 * changes the state, what it changes, and the timers it arms.
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
import { operationRecord } from './operationRecord.js';
import { archiveOf, operationIn } from './operationStore.js';
import type { OperationState, SimState } from './state.js';
import { operationOf, projectOf } from './stateAccess.js';
import type { TimerCommand } from './timers.js';
import { endpoint, operation, projectFields } from './touchPaths.js';
import { seconds } from './narrationWords.js';

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
    apply(draft, e) {
      const project = projectOf(draft, e.projectId);
      const sortKey = Math.max(e.at * 1000, project.lastSortKey + 1);
      project.lastSortKey = sortKey;
      const created = operationRecord(e, sortKey);
      project.operations[e.operationId] = created as Draft<OperationState>;
      project.pendingOperations[e.operationId] = true;
      if (e.afterId !== undefined) {
        const previous = project.operations[e.afterId];
        if (previous !== undefined) previous.nextIds = [...(previous.nextIds ?? []), e.operationId];
      }
    },
    touches(e, touch) {
      operation(touch, e.projectId, e.operationId);
      projectFields(touch, e.projectId);
      if (e.afterId !== undefined) touch('projects', e.projectId, 'operations', e.afterId);
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
    apply(draft, e) {
      const started = operationOf(draft, e.projectId, e.operationId);
      started.status = 'running';
      started.startedAt = e.at;
      started.durationMs = e.durationMs;
      started.updatedAt = e.at;
      clearField(started, 'retryAt');
    },
    touches: (e, touch) => operation(touch, e.projectId, e.operationId),
    timers(e, _state, _profile, arm) {
      const { projectId, operationId } = e;
      arm(e.at + e.durationMs, { type: 'CompleteOperation', projectId, operationId });
    },
    narrate: (e, names) => `${names.operation(e.operationId)}: running`,
  },

  OperationFinished: {
    apply(draft, e) {
      settle(draft, e.projectId, e.operationId, e.at, 'finished');
    },
    touches: (e, touch) => operation(touch, e.projectId, e.operationId),
    timers: armAfterEnd,
    narrate: (e, names) => `${names.operation(e.operationId)}: finished`,
  },

  OperationFailed: {
    apply(draft, e) {
      const failed = operationOf(draft, e.projectId, e.operationId);
      failed.status = 'failed';
      failed.failuresCount++;
      failed.error = e.error;
      failed.retryAt = e.retryAt;
      failed.updatedAt = e.at;
    },
    touches: (e, touch) => operation(touch, e.projectId, e.operationId),
    timers(e, _state, _profile, arm) {
      const { projectId, operationId } = e;
      arm(e.retryAt, { type: 'RetryOperation', projectId, operationId });
    },
    narrate: (e, names) => `${names.operation(e.operationId)}: failed (${e.error}), retried later`,
  },

  OperationErrored: {
    apply(draft, e) {
      const errored = settle(draft, e.projectId, e.operationId, e.at, 'error', e.error);
      const compute =
        e.endpointId === undefined
          ? undefined
          : projectOf(draft, e.projectId).endpoints[e.endpointId];
      if (compute !== undefined && operationKind(errored.action).releasesCompute)
        compute.failedSuspends = (compute.failedSuspends ?? 0) + 1;
    },
    touches(e, touch) {
      operation(touch, e.projectId, e.operationId);
      if (e.endpointId !== undefined) endpoint(touch, e.projectId, e.endpointId);
    },
    timers: armAfterEnd,
    narrate: (e, names) => `${names.operation(e.operationId)}: error (${e.error}), giving up`,
  },

  OperationCancelled: {
    apply(draft, e) {
      settle(draft, e.projectId, e.operationId, e.at, 'cancelled');
    },
    touches: (e, touch) => operation(touch, e.projectId, e.operationId),
    timers: armAfterEnd,
    narrate: (e, names) => `${names.operation(e.operationId)}: cancelled`,
  },

  OperationsPruned: {
    apply(draft, e) {
      const project = draft.projects[e.projectId];
      if (project === undefined) return;
      archiveOf(draft)?.prune(e.projectId, e.before);
      const operations = project.operations;
      // Operations are in creation order, and one created at `before` or later was updated no
      // earlier: the scan stops there, so a daily pruning that finds nothing old costs one look,
      // not one per operation kept.
      for (const id in operations) {
        const kept = operations[id] as Draft<OperationState>;
        if (kept.createdAt >= e.before) break;
        if (isTerminal(kept.status) && kept.updatedAt < e.before) delete operations[id];
      }
    },
    touches: (e, touch) => touch('projects', e.projectId, 'operations'),
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
  draft: Draft<SimState>,
  projectId: string,
  operationId: string,
  at: number,
  status: 'finished' | 'error' | 'cancelled',
  error?: string,
): OperationState {
  const project = projectOf(draft, projectId);
  const ended = operationOf(draft, projectId, operationId);
  ended.status = status;
  if (error !== undefined) {
    ended.failuresCount++;
    ended.error = error;
  }
  ended.updatedAt = at;
  ended.totalDurationMs = at - ended.createdAt;
  if (ended.retryAt !== undefined) clearField(ended, 'retryAt');
  ended.effects = ENDED_EFFECTS as Draft<OperationState['effects']>;
  delete project.pendingOperations[operationId];
  // A draft (the immer oracle) is frozen by immer as it finishes; a plain working object here.
  if (isDraft(ended)) return current<OperationState>(ended);
  if (ended.nextIds !== undefined) Object.freeze(ended.nextIds);
  const frozen = Object.freeze(ended) as OperationState;
  const archive = archiveOf(draft);
  if (archive !== undefined) {
    archive.add(frozen);
    delete project.operations[operationId];
  }
  return frozen;
}
