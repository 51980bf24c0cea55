/**
 * Cancelling the unfinished operations of an object that goes away (a compute, a branch).
 */
import type { Pending } from './decideContext.js';
import type { ProjectState } from './state.js';

/** Events cancelling every unfinished operation of the project that `matches`. */
export function cancelOperations(
  project: ProjectState,
  matches: (operation: { readonly endpointId?: string; readonly branchId: string }) => boolean,
): Pending {
  const events: Pending = [];
  for (const id of Object.keys(project.pendingOperations)) {
    const operation = project.operations[id];
    if (operation !== undefined && matches(operation)) {
      events.push({ type: 'OperationCancelled', projectId: project.id, operationId: id });
    }
  }
  return events;
}
