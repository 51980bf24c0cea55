/**
 * StartDelayedOperation (timer): an operation the control plane was slow to pick up (a scheduling
 * fault) starts now, with its running-phase effects. Stale once it is no longer `scheduling`.
 */
import { ok } from '../../core/result.js';
import { CommandDraft } from '../commandDraft.js';
import type { Handler } from '../decideContext.js';
import { startNext } from '../operationChains.js';
import type { StartDelayedOperation } from '../timers.js';

/** Decides the late start of a delayed operation. */
export const startDelayedOperation: Handler<StartDelayedOperation> = (state, command, context) => {
  const operation = state.projects[command.projectId]?.operations[command.operationId];
  if (operation === undefined || operation.status !== 'scheduling') return ok([]);
  const draft = new CommandDraft(state, context);
  startNext(draft, operation);
  return ok(draft.events);
};
