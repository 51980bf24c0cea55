/**
 * UpdateEndpoint: changes settings or moves a compute to another branch. What it does depends on
 * what changed and on the compute's state (see docs/state-machine.md):
 * - a branch change: the compute goes idle at once (connections dropped), `apply_config` running
 *   then `suspend_compute` scheduling;
 * - an active compute whose size, autoscaling limits or provisioner change, or that is disabled:
 *   `apply_config`, then a suspend (connections dropped) and, unless disabled, a start;
 * - an idle compute: it activates briefly (`apply_config`) and suspends again (`suspend_compute`);
 *   a connection arriving meanwhile waits through both and wakes it afterwards;
 * - anything else (timeout, pooler, settings, name): `apply_config` alone, no restart.
 */
import { isDown } from '../../domain/computeState.js';
import { own } from '../../core/own.js';
import { err, ok } from '../../core/result.js';
import { RESTARTING_FIELDS } from '../../domain/endpointChanges.js';
import { notFound } from '../../domain/rejection.js';
import { SQL_STATES } from '../../domain/sqlState.js';
import type { UpdateEndpoint } from '../commands.js';
import { CommandDraft } from '../commandDraft.js';
import type { Handler } from '../decideContext.js';
import { firstCheck } from '../availabilityChecks.js';
import { findEndpoint, lockedBy, notReady } from '../lookups.js';
import { lockedRefusal } from '../lockedRefusal.js';
import { secondReadWrite, settingsProblem } from '../newEndpoint.js';
import {
  recordOperations,
  startPlan,
  suspendPlan,
  type PlannedOperation,
} from '../operationPlanner.js';
import { dropConnections } from '../connectionEvents.js';
import type { EndpointSettings, EndpointState } from '../state.js';
import { ENDS_ACTIVE, NO_EFFECTS, WAKES_IF_DOWN } from '../effectLists.js';
import { computeStateChanged } from '../computeDeclarations.js';

/** Decides a compute update. */
export const updateEndpoint: Handler<UpdateEndpoint> = (state, command, context) => {
  const found = findEndpoint(state, command.projectId, command.endpointId);
  if (!found.ok) return found;
  const { project, endpoint } = found.value;
  const changes = realChanges(endpoint, command.changes);
  if (Object.keys(changes).length === 0) return ok([]);

  const { branchId: newBranchId, ...settingChanges } = changes;
  const merged: EndpointSettings = { ...endpoint, ...settingChanges };
  const problem = settingsProblem(merged, project.plan, context.profile.limits);
  if (problem !== undefined) return err(problem);
  if (newBranchId !== undefined) {
    const destination = own(project.branches, newBranchId);
    if (destination === undefined) return err(notFound('branch', newBranchId));
    const taken =
      endpoint.type === 'read_write'
        ? secondReadWrite(state, project.id, newBranchId, endpoint.id)
        : undefined;
    const refused = taken ?? notReady(destination);
    if (refused !== undefined) return err(refused);
  }
  const locked = lockedBy(project, { endpointId: endpoint.id }, context.profile.locks);
  if (locked !== undefined)
    return lockedRefusal(locked, command, {
      endpointId: command.endpointId,
      branchId: newBranchId,
    });

  const draft = new CommandDraft(state, context);
  draft.push({ type: 'EndpointUpdated', projectId: project.id, endpointId: endpoint.id, changes });
  const branchId = newBranchId ?? endpoint.branchId;
  const applyConfig: PlannedOperation = {
    action: 'apply_config',
    branchId,
    endpointId: endpoint.id,
    latency: 'apply_config',
  };
  let plan: PlannedOperation[];
  if (newBranchId !== undefined) {
    draft.pushAll(dropConnections(state, project.id, endpoint.id, SQL_STATES.terminated, 'open'));
    draft.push(computeStateChanged(project.id, endpoint.id, 'idle', 'idle'));
    plan = [applyConfig, { ...suspendPlan(branchId, endpoint.id), running: NO_EFFECTS }];
  } else if (isDown(endpoint.currentState, endpoint.pendingState)) {
    plan =
      changes.disabled === true
        ? [applyConfig]
        : [
            {
              ...applyConfig,
              running: WAKES_IF_DOWN,
              finished: ENDS_ACTIVE,
            },
            suspendPlan(branchId, endpoint.id),
          ];
  } else if (changes.disabled === true) {
    plan = [applyConfig, suspendPlan(branchId, endpoint.id)];
  } else if (Object.keys(settingChanges).some((field) => RESTARTING_FIELDS.has(field))) {
    plan = [
      applyConfig,
      suspendPlan(branchId, endpoint.id),
      startPlan(branchId, endpoint.id, 'wake_compute'),
    ];
  } else {
    plan = [applyConfig];
  }
  recordOperations(draft, project.id, plan);
  if (newBranchId !== undefined) firstCheck(draft, project.id, newBranchId);
  return ok(draft.events);
};

/** The requested changes that differ from the compute's current settings. */
function realChanges(
  endpoint: EndpointState,
  requested: UpdateEndpoint['changes'],
): UpdateEndpoint['changes'] {
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(requested)) {
    if (value === undefined) continue;
    const current = (endpoint as unknown as Record<string, unknown>)[key];
    const same =
      key === 'pgSettings' ? JSON.stringify(current) === JSON.stringify(value) : current === value;
    if (!same) changes[key] = value;
  }
  return changes;
}
