/**
 * RestoreBranch: a branch gets a new timeline starting at a point of its own (`^self`), its parent's
 * (`^parent`, what `neonctl branches reset` sends) or another branch's history: an LSN or an instant
 * within the project's history retention and the source's own timeline, or the source's head.
 *
 * With `preserve_under_name`, the previous state (lineage, timeline, children) is kept as a new branch
 * of that name first, so a restore never loses a branch; it is required when restoring from the
 * branch's own history or when the branch has children (public schema, BranchRestoreRequest). The
 * kept branch becomes the restored branch's parent, so "reset from parent" rolls the restore back
 * (the public docs' branch-restore guide; `neonctl branches restore` prints the parent as the backup);
 * being a parent, it cannot be deleted while the restored branch exists. Without it, the source
 * becomes the parent. `parent_lsn`/`parent_timestamp` are the restored point either way.
 *
 * Its computes restart on the new data: the spec is silent on what the service records, so the
 * simulator chooses, from the actions it knows, a restart's `suspend_compute` (open connections
 * dropped with 57P01) for each running compute, then `create_timeline` for the new timeline (drawn
 * from the `create_branch` latency range: a branch at a point, not a new project), then a
 * `start_compute` for each compute that was running. A compute that was down stays down.
 */
import { own } from '../../core/own.js';
import { drawUniqueId, newId } from '../../core/ids.js';
import { formatInstant } from '../../core/instant.js';
import { err, ok } from '../../core/result.js';
import { isDown } from '../../domain/computeState.js';
import { formatLsn, instantOfLsn, lsnAt } from '../../domain/lsn.js';
import { notFound, reject, type Rejection } from '../../domain/rejection.js';
import type { Result } from '../../core/result.js';
import type { RestoreBranch } from '../commands.js';
import { drawDatabaseIds } from '../branchConfig.js';
import { CommandDraft } from '../commandDraft.js';
import type { Handler } from '../decideContext.js';
import { lockedRefusal } from '../lockedRefusal.js';
import { findBranch, lockedBy } from '../lookups.js';
import {
  recordOperations,
  startPlan,
  suspendPlan,
  type PlannedOperation,
} from '../operationPlanner.js';
import type { BranchState, ProjectState } from '../state.js';
import { ENDS_IDLE } from '../effectLists.js';

/** A point of a branch's history: its LSN and the instant the branch was there. */
interface Point {
  readonly lsn: number;
  readonly at: number;
}

/** Decides a restore. */
export const restoreBranch: Handler<RestoreBranch> = (state, command, context) => {
  const found = findBranch(state, command.projectId, command.branchId);
  if (!found.ok) return found;
  const { project, branch } = found.value;
  const source = own(project.branches, command.sourceBranchId);
  if (source === undefined) return err(notFound('branch', command.sourceBranchId));
  const self = source.id === branch.id;
  const problem = requestProblem(project, branch, self, command);
  if (problem !== undefined) return err(problem);
  const point = pointOf(project, source, command, context.now);
  if (!point.ok) return point;
  const locked =
    lockedBy(project, { branchId: branch.id }, context.profile.locks) ??
    (self ? undefined : lockedBy(project, { branchId: source.id }, context.profile.locks));
  if (locked !== undefined) return lockedRefusal(locked, command, { branchId: branch.id });

  const draft = new CommandDraft(state, context);
  let preservedId: string | undefined;
  if (command.preserveUnderName !== undefined) {
    preservedId = drawUniqueId(newId.branch, context.random('ids'), (id) => id in project.branches);
    const preservedDatabaseIds = drawDatabaseIds(context, project, branch.databases.length);
    draft.push({
      type: 'BranchPreserved',
      projectId: project.id,
      branchId: preservedId,
      fromBranchId: branch.id,
      name: command.preserveUnderName,
      ...(branch.parentId === undefined ? {} : { parentId: branch.parentId }),
      ...(branch.parentLsn === undefined ? {} : { parentLsn: branch.parentLsn }),
      ...(branch.parentTimestamp === undefined ? {} : { parentTimestamp: branch.parentTimestamp }),
      timelineStartLsn: branch.timelineStartLsn,
      timelineStartedAt: branch.timelineStartedAt,
      childIds: childrenOf(project, branch.id).map((b) => b.id),
      // The previous state keeps the branch's roles and databases (its data), databases newly numbered.
      roles: branch.roles.map(({ name, password }) => ({ name, password })),
      databases: branch.databases.map(({ name, ownerName }, i) => ({
        id: preservedDatabaseIds[i] as number,
        name,
        ownerName,
      })),
    });
  }
  draft.push({
    type: 'BranchRestored',
    projectId: project.id,
    branchId: branch.id,
    parentId: preservedId ?? source.id,
    parentLsn: point.value.lsn,
    parentTimestamp: point.value.at,
    timelineStartLsn: point.value.lsn,
    sourceBranchId: source.id,
  });
  recordOperations(draft, project.id, restartPlan(project, branch.id));
  return ok(draft.events);
};

/** Why the request cannot be carried out whatever the history holds, or `undefined`. */
function requestProblem(
  project: ProjectState,
  branch: BranchState,
  self: boolean,
  command: RestoreBranch,
): Rejection | undefined {
  if (command.sourceLsn !== undefined && command.sourceTimestamp !== undefined)
    return reject('invalid_input', 'give source_lsn or source_timestamp, not both');
  if (self && command.sourceLsn === undefined && command.sourceTimestamp === undefined)
    return reject(
      'invalid_input',
      'restoring a branch from its own history needs source_lsn or source_timestamp',
    );
  const children = childrenOf(project, branch.id);
  if (command.preserveUnderName === undefined && (self || children.length > 0))
    return reject(
      'invalid_input',
      self
        ? 'preserve_under_name is required when restoring a branch from its own history'
        : `preserve_under_name is required: branch ${branch.id} has child branches (${children.map((c) => c.id).join(', ')})`,
    );
  if (
    command.preserveUnderName !== undefined &&
    Object.values(project.branches).some((b) => b.name === command.preserveUnderName)
  )
    return reject(
      'conflict',
      `branch name "${command.preserveUnderName}" is already taken in project ${project.id}`,
    );
  return undefined;
}

/**
 * The point of `source`'s history the request names, if it lies in the window a restore may reach:
 * from the later of the source's timeline start and the project's history retention, to now.
 */
function pointOf(
  project: ProjectState,
  source: BranchState,
  command: RestoreBranch,
  now: number,
): Result<Point, Rejection> {
  const from = Math.max(source.timelineStartedAt, now - project.historyRetentionSeconds * 1000);
  const window = `${formatInstant(from)} (LSN ${formatLsn(lsnAt(source, from))}) to ${formatInstant(now)} (LSN ${formatLsn(lsnAt(source, now))})`;
  if (command.sourceTimestamp !== undefined) {
    const at = command.sourceTimestamp;
    if (at < from || at > now)
      return err(
        reject(
          'invalid_input',
          `source_timestamp ${formatInstant(at)} is outside the history of branch ${source.id} that can be restored: ${window}`,
        ),
      );
    return ok({ lsn: lsnAt(source, at), at });
  }
  if (command.sourceLsn !== undefined) {
    const lsn = command.sourceLsn;
    if (lsn < lsnAt(source, from) || lsn > lsnAt(source, now))
      return err(
        reject(
          'invalid_input',
          `source_lsn ${formatLsn(lsn)} is outside the history of branch ${source.id} that can be restored: ${window}`,
        ),
      );
    return ok({ lsn, at: instantOfLsn(source, lsn) });
  }
  return ok({ lsn: lsnAt(source, now), at: now });
}

function childrenOf(project: ProjectState, branchId: string): BranchState[] {
  return Object.values(project.branches).filter((b) => b.parentId === branchId);
}

/** Suspends of the branch's running computes, the new timeline, then their starts again. */
function restartPlan(project: ProjectState, branchId: string): PlannedOperation[] {
  const running = Object.values(project.endpoints).filter(
    (e) => e.branchId === branchId && !isDown(e.currentState, e.pendingState),
  );
  return [
    ...running.map((e) => ({
      ...suspendPlan(branchId, e.id),
      finished: ENDS_IDLE,
    })),
    { action: 'create_timeline', branchId, latency: 'create_branch' },
    ...running.map((e) => startPlan(branchId, e.id, 'wake_compute')),
  ];
}
