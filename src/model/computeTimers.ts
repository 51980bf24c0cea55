/**
 * The checks a compute's, a branch's and a project's changes re-arm: scale to zero, autoscaling,
 * detaching an idle tenant, purging a deleted branch. Several kinds of event arm them (their declarations' `timers`), each with the
 * state right after it.
 */
import { allIdle } from './allIdle.js';
import { autoscalingTarget } from './autoscaleTarget.js';
import type { Profile } from '../domain/profile.js';
import { nextSample } from '../domain/autoscaling.js';
import { scaleToZeroDelayMs, suspendTimeoutMs } from '../domain/suspendTimeout.js';
import type { Arm } from '../engine/decider.js';
import type { SimState } from './state.js';
import type { TimerCommand } from './timers.js';

/** Arms the detach check of a project, `tenantDetachAfterMs` after it was last used (background). */
export function armDetach(
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
export function armSuspend(
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

/** Arms the next autoscaling sample of a compute whose demand calls for another size. */
export function armAutoscale(
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

/** Arms the end of a deleted branch's recovery window (background: nothing waits for it). */
export function armBranchPurge(
  projectId: string,
  branchId: string,
  deletedAt: number,
  until: number,
  arm: Arm<TimerCommand>,
): void {
  arm(until, { type: 'PurgeBranch', projectId, branchId, deletedAt }, true);
}
