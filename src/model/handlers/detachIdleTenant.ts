/**
 * DetachIdleTenant (background timer): a project nobody has used for `tenantDetachAfterMs`, all of
 * whose computes are idle and which has no unfinished operation, is detached from storage
 * (`tenant_detach`). The next operation it needs is preceded by a `tenant_reattach`.
 */
import { isEmpty } from '../../core/isEmpty.js';
import { ok } from '../../core/result.js';
import { allIdle } from '../allIdle.js';
import { CommandDraft } from '../commandDraft.js';
import type { Handler } from '../decideContext.js';
import { recordOperations } from '../operationPlanner.js';
import type { DetachIdleTenant } from '../timers.js';
import { TENANT_DETACHED } from '../effectLists.js';

/** Decides whether an idle project is detached now. */
export const detachIdleTenant: Handler<DetachIdleTenant> = (state, command, context) => {
  const project = state.projects[command.projectId];
  const after = context.profile.tenantDetachAfterMs;
  if (
    project === undefined ||
    project.detached ||
    after === 0 ||
    project.lastUsedAt !== command.lastUsedAt
  )
    return ok([]);
  if (context.now < project.lastUsedAt + after) return ok([]);
  if (!isEmpty(project.pendingOperations) || !allIdle(project)) return ok([]);
  const plan = [
    {
      action: 'tenant_detach' as const,
      branchId: project.defaultBranchId,
      latency: 'tenant_detach' as const,
      finished: TENANT_DETACHED,
    },
  ];
  const draft = new CommandDraft(state, context);
  recordOperations(draft, project.id, plan);
  return ok(draft.events);
};
