/**
 * DeleteEndpoint: the compute goes at once, its connections terminated and its unfinished operations
 * cancelled. Deletion is permanent and records no operation (as the spec shows).
 */
import { ok } from '../../core/result.js';
import { SQL_STATES } from '../../domain/sqlState.js';
import { cancelOperations } from '../operationChains.js';
import type { DeleteEndpoint } from '../commands.js';
import type { Handler, Pending } from '../decideContext.js';
import { findEndpoint } from '../lookups.js';
import { dropConnections } from '../connectionEvents.js';

/** Decides a compute deletion. */
export const deleteEndpoint: Handler<DeleteEndpoint> = (state, command, context) => {
  const found = findEndpoint(state, command.projectId, command.endpointId);
  if (!found.ok) return found;
  const { project, endpoint } = found.value;
  const events: Pending = [
    ...dropConnections(state, project.id, endpoint.id, SQL_STATES.endpointNotFound, 'all'),
    ...cancelOperations(state, project, (o) => o.endpointId === endpoint.id, context),
    { type: 'EndpointDeleted', projectId: project.id, endpointId: endpoint.id },
  ];
  return ok(events);
};
