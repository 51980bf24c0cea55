/**
 * The timers each event arms, given the state right after it. Called live and on replay alike, so a
 * replayed simulation holds the same agenda as the original.
 */
import { isEmpty } from '../core/isEmpty.js';
import { allIdle } from './allIdle.js';
import { autoscalingTarget } from './autoscaleTarget.js';
import { outgrowsTempDisk } from './sessionLoad.js';
import { PRUNE_EVERY_MS } from './handlers/pruneOperations.js';
import { operationKind } from '../domain/operationKinds.js';
import type { Profile } from '../domain/profile.js';
import { nextSample } from '../domain/autoscaling.js';
import { coldCachePenaltyMs } from '../domain/coldCache.js';
import { scaleToZeroDelayMs, suspendTimeoutMs } from '../domain/suspendTimeout.js';
import type { Arm } from '../engine/decider.js';
import type { DomainEvent, SettingsChanged } from './events.js';
import type { SimState } from './state.js';
import type { TimerCommand } from './timers.js';
import { operationIn } from './operationStore.js';
import { entryOf } from './workingMaps.js';

/** Arms the timers `event` sets. */
export function armTimers(
  event: DomainEvent,
  state: SimState,
  profile: Profile,
  arm: Arm<TimerCommand>,
): void {
  switch (event.type) {
    case 'OperationCreated':
      if (event.status === 'running') {
        const { projectId, operationId } = event;
        arm(event.at + event.durationMs, { type: 'CompleteOperation', projectId, operationId });
      } else if (event.startAt !== undefined) {
        const { projectId, operationId } = event;
        arm(event.startAt, { type: 'StartDelayedOperation', projectId, operationId });
      }
      return;
    case 'OperationStarted': {
      const { projectId, operationId } = event;
      arm(event.at + event.durationMs, { type: 'CompleteOperation', projectId, operationId });
      return;
    }
    case 'OperationFailed': {
      const { projectId, operationId } = event;
      arm(event.retryAt, { type: 'RetryOperation', projectId, operationId });
      return;
    }
    case 'OperationFinished':
    case 'OperationErrored':
    case 'OperationCancelled': {
      // A suspend is skipped while operations lock the compute; re-check once one settles.
      const project = state.projects[event.projectId];
      const ended = project === undefined ? undefined : operationIn(project, event.operationId);
      const endpointId = ended?.endpointId;
      if (endpointId !== undefined)
        armSuspend(state, event.projectId, endpointId, event.at, profile, arm);
      // A detach is skipped while operations are unfinished; re-check once the last one settles
      // (not after a detach itself, which would retry a failing detach at once, forever).
      const action = ended?.action;
      const pending = project?.pendingOperations;
      const settled = pending === undefined || isEmpty(pending);
      if (settled && (action === undefined || !operationKind(action).detachesStorage)) {
        armDetach(state, event.projectId, event.at, profile, arm);
      }
      return;
    }
    case 'AvailabilityCheckScheduled':
      if (event.dueAt !== null) {
        const { projectId, branchId, dueAt } = event;
        arm(dueAt, { type: 'CheckAvailability', projectId, branchId, dueAt }, true);
      }
      return;
    case 'ComputeStateChanged':
      armAutoscale(state, event.projectId, event.endpointId, event.at, profile, arm);
      armSuspend(state, event.projectId, event.endpointId, event.at, profile, arm);
      if (event.currentState === 'idle' && event.pendingState === null)
        armDetach(state, event.projectId, event.at, profile, arm);
      return;
    case 'ConnectionOpened':
      armSessionEnd(state, event.connectionId, event.at, profile, arm);
      armAutoscale(state, event.projectId, event.endpointId, event.at, profile, arm);
      armSuspend(state, event.projectId, event.endpointId, event.at, profile, arm);
      return;
    case 'QueryStarted':
      arm(event.until, { type: 'EndQuery', connectionId: event.connectionId, until: event.until });
      return;
    case 'QueryFinished':
    case 'TransactionChanged':
      armSuspend(state, event.projectId, event.endpointId, event.at, profile, arm);
      return;
    case 'ConnectionClosed':
    case 'ConnectionsDropped':
      armAutoscale(state, event.projectId, event.endpointId, event.at, profile, arm);
      armSuspend(state, event.projectId, event.endpointId, event.at, profile, arm);
      return;
    case 'EndpointUpdated':
      armSuspend(state, event.projectId, event.endpointId, event.at, profile, arm);
      return;
    case 'WorkloadAttached':
      if (event.firstAt !== null) {
        const timer = { type: 'ArriveSession', workloadId: event.workloadId, index: 0 } as const;
        arm(Math.max(event.at, event.firstAt), timer, true);
      }
      return;
    case 'ProjectCreated':
      if (profile.operationRetentionMs > 0)
        arm(
          event.at + PRUNE_EVERY_MS,
          { type: 'PruneOperations', projectId: event.projectId },
          true,
        );
      return;
    case 'OperationsPruned': {
      const recoveredAt = state.projects[event.projectId]?.recoveredAt;
      const timer = { type: 'PruneOperations', projectId: event.projectId } as const;
      arm(event.nextAt, recoveredAt === undefined ? timer : { ...timer, recoveredAt }, true);
      return;
    }
    case 'ProjectDeleted':
      if (event.recoverableUntil !== undefined) {
        const timer = { type: 'PurgeProject', projectId: event.projectId, deletedAt: event.at };
        arm(event.recoverableUntil, timer as TimerCommand, true);
      }
      return;
    case 'BranchDeleted':
      if (event.recoverableUntil !== undefined)
        armBranchPurge(event.projectId, event.branchId, event.at, event.recoverableUntil, arm);
      return;
    case 'ProjectRecovered': {
      const project = state.projects[event.projectId];
      if (project === undefined) return;
      if (profile.operationRetentionMs > 0) {
        const timer = {
          type: 'PruneOperations',
          projectId: event.projectId,
          recoveredAt: event.at,
        };
        arm(event.at + PRUNE_EVERY_MS, timer as TimerCommand, true);
      }
      // Its branches deleted before it keep their own windows (a timer that fired while the
      // project was away found nothing: arm again; a second firing finds nothing to purge).
      for (const [branchId, kept] of Object.entries(project.deletedBranches ?? {}))
        armBranchPurge(
          event.projectId,
          branchId,
          kept.deletedAt,
          Math.max(event.at, kept.recoverableUntil),
          arm,
        );
      armDetach(state, event.projectId, event.at, profile, arm);
      return;
    }

    case 'SessionArrived':
      if (event.nextAt !== null) {
        const { workloadId, index } = event;
        arm(event.nextAt, { type: 'ArriveSession', workloadId, index: index + 1 }, true);
      }
      return;
    case 'SettingsChanged':
      armAfterChange(event, state, profile, arm);
      return;
    case 'ConnectionRefused':
      if (event.projectId !== undefined) {
        armSuspend(state, event.projectId, event.endpointId, event.at, profile, arm);
        // A refused connection counts as a use: the detach check starts again from it.
        armDetach(state, event.projectId, event.at, profile, arm);
      }
      return;
    default:
      return;
  }
}

/**
 * After settings change, every check that reads them is armed again under the new values: timers
 * armed under the old ones stay, and find themselves stale or early when they fire.
 */
function armAfterChange(
  event: SettingsChanged,
  state: SimState,
  profile: Profile,
  arm: Arm<TimerCommand>,
): void {
  const changed = new Set((event.computes ?? []).map((c) => c.endpointId));
  for (const project of Object.values(state.projects)) {
    for (const endpointId of Object.keys(project.endpoints)) {
      if (event.profile === undefined && !changed.has(endpointId)) continue;
      armSuspend(state, project.id, endpointId, event.at, profile, arm);
      armAutoscale(state, project.id, endpointId, event.at, profile, arm);
    }
    if (event.profile !== undefined) armDetach(state, project.id, event.at, profile, arm);
  }
  for (const { workloadId } of event.workloads ?? []) {
    const workload = entryOf(state.workloads, workloadId);
    if (workload === undefined || workload.nextAt === null) continue;
    const timer = { type: 'ArriveSession', workloadId, index: workload.nextIndex } as const;
    arm(Math.max(event.at, workload.nextAt), timer, true);
  }
}

/** Arms the end of a deleted branch's recovery window (background: nothing waits for it). */
function armBranchPurge(
  projectId: string,
  branchId: string,
  deletedAt: number,
  until: number,
  arm: Arm<TimerCommand>,
): void {
  arm(until, { type: 'PurgeBranch', projectId, branchId, deletedAt }, true);
}

/** Arms the detach check of a project, `tenantDetachAfterMs` after it was last used (background). */
function armDetach(
  state: SimState,
  projectId: string,
  now: number,
  profile: Profile,
  arm: Arm<TimerCommand>,
): void {
  const project = state.projects[projectId];
  if (project === undefined || project.detached || profile.tenantDetachAfterMs === 0) return;
  if (!allIdle(project)) return;
  const { lastUsedAt } = project;
  // Armed each time the project's computes settle idle, a long wait ahead: keyed by project, so
  // the check of an earlier `lastUsedAt` (stale once it changed; due at the same time if not) goes.
  arm(
    Math.max(now, lastUsedAt + profile.tenantDetachAfterMs),
    { type: 'DetachIdleTenant', projectId, lastUsedAt },
    true,
    `DetachIdleTenant ${projectId}`,
  );
}

/** Arms the scale-to-zero check of a compute that is idle, at the end of its timeout. */
function armSuspend(
  state: SimState,
  projectId: string,
  endpointId: string,
  now: number,
  profile: Profile,
  arm: Arm<TimerCommand>,
): void {
  const endpoint = state.projects[projectId]?.endpoints[endpointId];
  if (endpoint?.idleSince === undefined) return;
  const timeout = suspendTimeoutMs(endpoint.suspendTimeoutSeconds, endpoint.maxCu, profile);
  if (timeout === undefined) return;
  const { idleSince } = endpoint;
  arm(Math.max(now, idleSince + scaleToZeroDelayMs(timeout, endpoint.failedSuspends)), {
    type: 'SuspendIdleCompute',
    projectId,
    endpointId,
    idleSince,
  });
}

/**
 * Arms the end of a workload session that just opened: after its hold time, plus the cold-cache
 * penalty when the compute started moments ago; at once when a statement of it cannot fit on disk.
 */
function armSessionEnd(
  state: SimState,
  connectionId: string,
  now: number,
  profile: Profile,
  arm: Arm<TimerCommand>,
): void {
  const connection = entryOf(state.connections, connectionId);
  if (connection?.holdMs === undefined) return;
  const timer = { type: 'EndSession', connectionId } as const;
  if (outgrowsTempDisk(connection, profile.limits)) {
    arm(now, timer);
    return;
  }
  const startedAt =
    state.projects[connection.projectId ?? '']?.endpoints[connection.endpointId]?.startedAt;
  arm(now + connection.holdMs + coldCachePenaltyMs(startedAt, now, profile.coldCache), timer);
}

/** Arms the next autoscaling sample of a compute whose demand calls for another size. */
function armAutoscale(
  state: SimState,
  projectId: string,
  endpointId: string,
  now: number,
  profile: Profile,
  arm: Arm<TimerCommand>,
): void {
  const endpoint = state.projects[projectId]?.endpoints[endpointId];
  const target = autoscalingTarget(endpoint, profile);
  const allocated = endpoint?.allocatedCu;
  if (target === undefined || target === allocated) return;
  const { sampleMs, scaleDownAfterMs } = profile.autoscaling;
  const earliest =
    target > (allocated as number) ? now : (endpoint?.loadChangedAt ?? now) + scaleDownAfterMs - 1;
  arm(nextSample(earliest, sampleMs), { type: 'Autoscale', projectId, endpointId });
}
