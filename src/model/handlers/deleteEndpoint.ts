/**
 * DeleteEndpoint: the compute goes at once, its connections terminated and its unfinished operations
 * cancelled. Deletion is permanent and records no operation (as the spec shows).
 */
import { ok } from '../../core/result.js';
import { SQL_STATES } from '../../domain/sqlState.js';
import { cancelOperations } from '../operationChains.js';
import type { DeleteEndpoint } from '../commands.js';
import { CommandDraft } from '../commandDraft.js';
import type { Handler } from '../decideContext.js';
import { findEndpoint } from '../lookups.js';
import { dropConnections } from '../connectionEvents.js';
import { endpointDeleted } from '../computeDeclarations.js';

/** Decides a compute deletion. */
export const deleteEndpoint: Handler<DeleteEndpoint> = (state, command, context) => {
  const found = findEndpoint(state, command.projectId, command.endpointId);
  if (!found.ok) return found;
  const { project, endpoint } = found.value;
  const draft = new CommandDraft(state, context);
  draft.pushAll(
    dropConnections(state, project.id, endpoint.id, SQL_STATES.endpointNotFound, 'all'),
  );
  cancelOperations(draft, project, (o) => o.endpointId === endpoint.id);
  draft.push(endpointDeleted(project.id, endpoint.id));
  return ok(draft.events);
};
