/**
 * What role and database commands share: finding the branch they change (404, 423), drawing ids and
 * passwords, and recording the operations that apply the new configuration to the branch's
 * read-write compute. An active compute gets `apply_config`; an idle one is activated for it and
 * suspended again (`apply_config` running, `suspend_compute` scheduling, as the public schema's
 * examples show); a branch without a read-write compute, or whose compute is disabled, records
 * nothing (the configuration is kept and applied at the compute's next start). A simulator choice:
 * open connections are kept (the schema's descriptions say creating a role or resetting a password
 * drops the active compute's connections; that drop is not simulated yet).
 */
import { newPassword } from '../core/password.js';
import { isDown } from '../domain/computeState.js';
import type { Rejection } from '../domain/rejection.js';
import { CommandDraft } from './commandDraft.js';
import type { CreateRole } from './commands.js';
import type { Decision, ModelContext, Refusal } from './decideContext.js';
import type { DomainEvent } from './events.js';
import type { Unstamped } from '../engine/loggedEvent.js';
import { findBranch, lockedBy } from './lookups.js';
import { lockedRefusal } from './lockedRefusal.js';
import { recordOperations, suspendPlan, type PlannedOperation } from './operationPlanner.js';
import { ok, type Result } from '../core/result.js';
import type { BranchState, DatabaseState, ProjectState, RoleState, SimState } from './state.js';
import type { LocksProfile } from '../domain/profile.js';
import { ENDS_ACTIVE, WAKES_IF_DOWN } from './effectLists.js';

/** The database of a new project, unless its request names another (its owner: `neondb_owner`). */
export const DEFAULT_DATABASE = 'neondb';

/** The project and branch a role or database command names. */
export interface ConfigTarget {
  readonly project: ProjectState;
  readonly branch: BranchState;
}

/** The branch `command` names, with its project, or a 404. */
export function findConfigTarget(
  state: SimState,
  command: Pick<CreateRole, 'projectId' | 'branchId'>,
): Result<ConfigTarget, Rejection> {
  return findBranch(state, command.projectId, command.branchId);
}

/**
 * A role or database change that passed its own checks: 423 while an operation locks the branch,
 * else the event `change` gives (called only then: it may draw ids or passwords) followed by the
 * operations that apply it to the branch's compute.
 */
export function decideConfigChange(
  state: SimState,
  context: ModelContext,
  target: ConfigTarget,
  command: Pick<CreateRole, 'projectId' | 'branchId' | 'request'>,
  change: () => Unstamped<DomainEvent>,
): Decision {
  const locked = lockedConfig(target, command, context.profile.locks);
  if (locked !== undefined) return locked;
  const draft = new CommandDraft(state, context);
  draft.push(change());
  applyConfig(draft, target.project, target.branch.id);
  return ok(draft.events);
}

/** A 423 refusal when an unfinished operation locks the branch (under the profile's `locks`), else `undefined`. */
function lockedConfig(
  target: ConfigTarget,
  command: Pick<CreateRole, 'projectId' | 'branchId' | 'request'>,
  locks: LocksProfile,
): Refusal | undefined {
  const locked = lockedBy(target.project, { branchId: target.branch.id }, locks);
  return locked === undefined
    ? undefined
    : lockedRefusal(locked, command, { branchId: target.branch.id });
}

/** The role `name` of the branch. */
export function roleNamed(branch: BranchState, name: string): RoleState | undefined {
  return branch.roles.find((role) => role.name === name);
}

/** The database `name` of the branch. */
export function databaseNamed(branch: BranchState, name: string): DatabaseState | undefined {
  return branch.databases.find((database) => database.name === name);
}

/** A new role password from the command's `passwords` stream. */
export function drawPassword(context: ModelContext): string {
  return newPassword(context.random('passwords'));
}

/**
 * Database ids not yet used in the project (nor in `taken`), from the command's `database-ids`
 * stream: a stream of its own, so drawing them shifts no other id.
 */
export function drawDatabaseIds(
  context: ModelContext,
  project: ProjectState | undefined,
  count: number,
): number[] {
  const used = new Set<number>();
  for (const branch of Object.values(project?.branches ?? {}))
    for (const database of branch.databases) used.add(database.id);
  const random = context.random('database-ids');
  const ids: number[] = [];
  while (ids.length < count) {
    const id = random.int(1_000_000, 99_999_999);
    if (used.has(id)) continue;
    used.add(id);
    ids.push(id);
  }
  return ids;
}

/** Records the operations that apply a role or database change to the branch's compute. */
function applyConfig(draft: CommandDraft, project: ProjectState, branchId: string): void {
  const endpoint = Object.values(project.endpoints).find(
    (e) => e.branchId === branchId && e.type === 'read_write',
  );
  if (endpoint === undefined || endpoint.disabled) return;
  const apply: PlannedOperation = {
    action: 'apply_config',
    branchId,
    endpointId: endpoint.id,
    latency: 'apply_config',
  };
  const plan: PlannedOperation[] = isDown(endpoint.currentState, endpoint.pendingState)
    ? [
        {
          ...apply,
          running: WAKES_IF_DOWN,
          finished: ENDS_ACTIVE,
        },
        suspendPlan(branchId, endpoint.id),
      ]
    : [apply];
  recordOperations(draft, project.id, plan);
}
