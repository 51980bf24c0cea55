/**
 * Restart, start and suspend requests on a compute. Restart records `suspend_compute` (running:
 * connections dropped) then `start_compute`; start and suspend record their operation even when the
 * compute is already where they lead (it then finishes without changing anything).
 */
import { isDown } from '../../domain/computeState.js';
import { err, ok } from '../../core/result.js';
import { reject } from '../../domain/rejection.js';
import type { RestartEndpoint, StartEndpoint, SuspendEndpoint } from '../commands.js';
import { CommandDraft } from '../commandDraft.js';
import type { Handler, ModelContext, Refusal } from '../decideContext.js';
import { lockedRefusal } from '../lockedRefusal.js';
import { findEndpoint, lockedBy } from '../lookups.js';
import {
  recordOperations,
  startPlan,
  suspendPlan,
  type PlannedOperation,
} from '../operationPlanner.js';
import type { EndpointState, ProjectState, SimState } from '../state.js';
import { ENDS_IDLE, NO_EFFECTS } from '../effectLists.js';

type Target = { project: ProjectState; endpoint: EndpointState };

/** Finds the compute and refuses when it is locked (423) or, for starts, disabled (400). */
function controllable(
  state: SimState,
  command: RestartEndpoint | StartEndpoint | SuspendEndpoint,
  starts: boolean,
  context: ModelContext,
): { readonly ok: true; readonly value: Target } | Refusal {
  const found = findEndpoint(state, command.projectId, command.endpointId);
  if (!found.ok) return found;
  const { project, endpoint } = found.value;
  if (starts && endpoint.disabled) {
    return err(
      reject(
        'invalid_input',
        `endpoint ${endpoint.id} is disabled; enable it (disabled: false) before starting it`,
      ),
    );
  }
  const locked = lockedBy(project, { endpointId: endpoint.id }, context.profile.locks);
  return locked === undefined
    ? ok(found.value)
    : lockedRefusal(locked, command, { endpointId: command.endpointId });
}

function record(
  state: SimState,
  target: Target,
  plan: readonly PlannedOperation[],
  context: ModelContext,
) {
  const draft = new CommandDraft(state, context);
  recordOperations(draft, target.project.id, plan);
  return ok(draft.events);
}

/** Decides a restart. */
export const restartEndpoint: Handler<RestartEndpoint> = (state, command, context) => {
  const target = controllable(state, command, true, context);
  if (!target.ok) return target;
  const { branchId, id } = target.value.endpoint;
  const suspend = suspendPlan(branchId, id);
  return record(
    state,
    target.value,
    [{ ...suspend, finished: ENDS_IDLE }, startPlan(branchId, id, 'wake_compute')],
    context,
  );
};

/** Decides a start request. */
export const startEndpoint: Handler<StartEndpoint> = (state, command, context) => {
  const target = controllable(state, command, true, context);
  if (!target.ok) return target;
  const { branchId, id, currentState, pendingState } = target.value.endpoint;
  const start = startPlan(branchId, id, 'wake_compute');
  return record(
    state,
    target.value,
    [
      isDown(currentState, pendingState)
        ? start
        : { ...start, running: NO_EFFECTS, finished: NO_EFFECTS },
    ],
    context,
  );
};

/** Decides a suspend request. */
export const suspendEndpoint: Handler<SuspendEndpoint> = (state, command, context) => {
  const target = controllable(state, command, false, context);
  if (!target.ok) return target;
  const { branchId, id, currentState, pendingState } = target.value.endpoint;
  const suspend = suspendPlan(branchId, id);
  return record(
    state,
    target.value,
    [
      isDown(currentState, pendingState)
        ? { ...suspend, running: NO_EFFECTS, finished: NO_EFFECTS }
        : suspend,
    ],
    context,
  );
};
