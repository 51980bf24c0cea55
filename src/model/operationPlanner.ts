/**
 * Recording operations and carrying out their effects. A request records a chain: the first
 * operation `running`, each next one `scheduling` behind the one before. Each operation carries its
 * effects as data and the latency range its attempts are drawn from; effects that change objects are
 * carried out by operationEffects.ts, the one that plans more work (a wake) here.
 */
import { deepFreeze } from '../core/deepFreeze.js';
import { newId } from '../core/ids.js';
import type { OperationAction } from '../domain/operationAction.js';
import { operationKind, type OperationRole } from '../domain/operationKinds.js';
import { faultFor, type LatencyProfile } from '../domain/profile.js';
import type { Unstamped } from '../engine/loggedEvent.js';
import type { CommandDraft } from './commandDraft.js';
import { waitingConnections } from './connectionEvents.js';
import type { ModelContext } from './decideContext.js';
import type { OperationCreated } from './operationEventTypes.js';
import type { OperationEffect } from './operationEffect.js';
import { carryOutObjectEffect, type OperationTarget } from './operationEffects.js';
import type { EndpointState, ProjectState } from './state.js';
import {
  NO_EFFECTS,
  START_FINISHED,
  START_RUNNING,
  SUSPEND_FINISHED,
  SUSPEND_RUNNING,
  TENANT_ATTACHED,
} from './effectLists.js';

/** One operation to record. */
export interface PlannedOperation {
  readonly action: OperationAction;
  readonly branchId: string;
  readonly endpointId?: string;
  /** Which latency range its attempts are drawn from. */
  readonly latency: keyof LatencyProfile;
  readonly running?: readonly OperationEffect[];
  readonly finished?: readonly OperationEffect[];
}

/**
 * Records `plan` as a chain in `draft`, with the running-phase effects of the first operation. When
 * the project's storage is detached (or being detached), a `tenant_reattach` goes first, behind the
 * detach if that is still unfinished. Returns the ids of the recorded operations.
 */
export function recordOperations(
  draft: CommandDraft,
  projectId: string,
  plan: readonly PlannedOperation[],
): string[] {
  const { context } = draft;
  const operationIds: string[] = [];
  const project = draft.state.projects[projectId];
  const { steps, after } =
    project === undefined ? { steps: plan, after: undefined } : withReattach(draft, project, plan);
  let previousId = after;
  for (const step of steps) {
    const operationId = newId.operation(context.random('ids'));
    const first = operationIds.length === 0 && after === undefined;
    const durationMs = drawDuration(context, step.latency);
    const delayMs = first ? schedulingDelay(context, step) : undefined;
    const runsNow = first && delayMs === undefined;
    const status = runsNow ? 'running' : 'scheduling';
    const effects = sharedEffects(step.running ?? NO_EFFECTS, step.finished ?? NO_EFFECTS);
    const startAt = delayMs === undefined ? undefined : context.now + delayMs;
    const created = createdEvent(
      projectId,
      operationId,
      step,
      status,
      durationMs,
      previousId,
      startAt,
      effects,
    );
    draft.push(created);
    if (runsNow)
      carryOut(
        draft,
        { projectId, branchId: step.branchId, endpointId: step.endpointId },
        step.running ?? NO_EFFECTS,
      );
    operationIds.push(operationId);
    previousId = operationId;
  }
  return operationIds;
}

/**
 * The `OperationCreated` event of one planned step. The usual one (on a compute, first of its chain,
 * running or scheduling at once) is one literal; the others spread their optional fields in. Built
 * by spreads, the usual event is larger and comes in more layouts, which every reader pays for
 * (docs/performance.md has the figure).
 */
function createdEvent(
  projectId: string,
  operationId: string,
  step: PlannedOperation,
  status: 'running' | 'scheduling',
  durationMs: number,
  afterId: string | undefined,
  startAt: number | undefined,
  effects: OperationCreated['effects'],
): Unstamped<OperationCreated> {
  const { action, branchId, endpointId, latency } = step;
  if (endpointId !== undefined && afterId === undefined && startAt === undefined)
    return {
      type: 'OperationCreated',
      projectId,
      operationId,
      action,
      branchId,
      endpointId,
      status,
      durationMs,
      latency,
      effects,
    };
  return {
    type: 'OperationCreated',
    projectId,
    operationId,
    action,
    branchId,
    ...(endpointId === undefined ? {} : { endpointId }),
    status,
    durationMs,
    latency,
    ...(afterId === undefined ? {} : { afterId }),
    ...(startAt === undefined ? {} : { startAt }),
    effects,
  };
}

/**
 * Adds to `draft` the events carrying out `effects` of an operation on `target`, in order, against
 * the state as changed by the events decided so far.
 */
export function carryOut(
  draft: CommandDraft,
  target: OperationTarget,
  effects: readonly OperationEffect[],
): void {
  for (const effect of effects) {
    if (effect.kind === 'wakeIfWaiting') wakeIfWaiting(draft, target);
    else carryOutObjectEffect(draft, target, effect);
  }
}

/** The compute just went idle: if connections wait for it and no start is under way, start it again. */
function wakeIfWaiting(draft: CommandDraft, target: OperationTarget): void {
  const project = draft.state.projects[target.projectId];
  const endpoint =
    target.endpointId === undefined ? undefined : project?.endpoints[target.endpointId];
  if (
    endpoint === undefined ||
    endpoint.disabled ||
    waitingConnections(draft.state, endpoint.id).length === 0
  )
    return;
  if (project !== undefined && hasUnfinished(project, 'startsCompute', endpoint.id)) return;
  wake(draft, endpoint);
}

/** Records a start of `endpoint` for the clients waiting for it. */
export function wake(draft: CommandDraft, endpoint: EndpointState): void {
  recordOperations(draft, endpoint.projectId, [
    startPlan(endpoint.branchId, endpoint.id, 'wake_compute'),
  ]);
}

/** One frozen object per distinct effects value, shared by every operation that has it. */
const EFFECTS = new Map<string, OperationCreated['effects']>();
/** The same, found by the identity of frozen plan arrays (the common starts and suspends). */
const EFFECTS_BY_ARRAYS = new WeakMap<
  readonly OperationEffect[],
  WeakMap<readonly OperationEffect[], OperationCreated['effects']>
>();

/**
 * The effects of an operation as a deeply frozen object shared with every operation that has the
 * same ones: a long run records millions of starts and suspends, and they need not each hold a copy
 * (frozen values are also shared, not copied, by published snapshots and the log's encoder).
 */
function sharedEffects(
  running: readonly OperationEffect[],
  finished: readonly OperationEffect[],
): OperationCreated['effects'] {
  const known = EFFECTS_BY_ARRAYS.get(running)?.get(finished);
  if (known !== undefined) return known;
  const key = JSON.stringify([running, finished]);
  let effects = EFFECTS.get(key);
  if (effects === undefined) {
    effects = deepFreeze({
      running: structuredClone(running),
      finished: structuredClone(finished),
    });
    EFFECTS.set(key, effects);
  }
  if (Object.isFrozen(running) && Object.isFrozen(finished)) {
    let byFinished = EFFECTS_BY_ARRAYS.get(running);
    if (byFinished === undefined) EFFECTS_BY_ARRAYS.set(running, (byFinished = new WeakMap()));
    byFinished.set(finished, effects);
  }
  return effects;
}

/**
 * How long an operation that could run at once first stays `scheduling`, when its fault spec says
 * it is slow to be picked up this time; undefined when it runs at once. Draws only when the spec has
 * a delay, so runs without one keep their random streams.
 */
function schedulingDelay(context: ModelContext, step: PlannedOperation): number | undefined {
  const fault = faultFor(context.profile, step.action, step.latency);
  if (fault?.delayRate === undefined || fault.delayMs === undefined || fault.delayRate === 0)
    return undefined;
  const faults = context.random(`faults:${step.action}:delay`);
  if (!faults.chance(fault.delayRate)) return undefined;
  return faults.int(fault.delayMs[0], fault.delayMs[1]);
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
    running: START_RUNNING,
    finished: START_FINISHED,
  };
}

/** The plan of a compute suspend: open connections dropped, pending idle, then idle (woken again for waiters). */
export function suspendPlan(branchId: string, endpointId: string): PlannedOperation {
  return {
    action: 'suspend_compute',
    branchId,
    endpointId,
    latency: 'suspend_compute',
    running: SUSPEND_RUNNING,
    finished: SUSPEND_FINISHED,
  };
}

/**
 * True when the project has an unfinished operation whose kind has `role` (on the compute, if
 * given), for example a start under way: `hasUnfinished(project, 'startsCompute', endpointId)`.
 */
export function hasUnfinished(
  project: ProjectState,
  role: OperationRole,
  endpointId?: string,
): boolean {
  return unfinished(project, role, endpointId) !== undefined;
}

/** The id of an unfinished operation whose kind has `role` (on the compute, if given). */
function unfinished(
  project: ProjectState,
  role: OperationRole,
  endpointId?: string,
): string | undefined {
  for (const id of Object.keys(project.pendingOperations)) {
    const operation = project.operations[id];
    if (
      operation !== undefined &&
      operationKind(operation.action)[role] &&
      (endpointId === undefined || operation.endpointId === endpointId)
    )
      return id;
  }
  return undefined;
}

/**
 * Where `plan` goes when the project's storage is detached or being detached: behind the
 * `tenant_reattach` already under way (or decided earlier in this command), or else behind a new
 * reattach, itself behind the detach if that is still unfinished. Work never runs without storage.
 */
function withReattach(
  draft: CommandDraft,
  project: ProjectState,
  plan: readonly PlannedOperation[],
): { steps: readonly PlannedOperation[]; after?: string } {
  const detaching = unfinished(project, 'detachesStorage');
  if (!project.detached && detaching === undefined) return { steps: plan };
  const reattaching =
    unfinished(project, 'reattachesStorage') ?? draft.recordedOperation('reattachesStorage');
  if (reattaching !== undefined) return { steps: plan, after: reattaching };
  const reattach: PlannedOperation = {
    action: 'tenant_reattach',
    branchId: project.defaultBranchId,
    latency: 'tenant_reattach',
    finished: TENANT_ATTACHED,
  };
  return detaching === undefined
    ? { steps: [reattach, ...plan] }
    : { steps: [reattach, ...plan], after: detaching };
}
