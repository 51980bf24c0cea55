/**
 * DropConnections: the open connections of a compute are terminated from outside (57P01), as a
 * fault for testing clients. The compute stays as it is; clients still waiting for it keep waiting.
 */
import { own } from '../../core/own.js';
import { err, ok } from '../../core/result.js';
import { reject } from '../../domain/rejection.js';
import { SQL_STATES } from '../../domain/sqlState.js';
import type { DropConnections } from '../commands.js';
import { dropConnections } from '../connectionEvents.js';
import type { Handler } from '../decideContext.js';

/** Decides a drop of a compute's open connections (none open: nothing happens). */
export const dropOpenConnections: Handler<DropConnections> = (state, command) => {
  const projectId = own(state.endpointOwners, command.endpointId);
  if (projectId === undefined)
    return err(reject('not_found', `compute ${JSON.stringify(command.endpointId)} not found`));
  return ok(dropConnections(state, projectId, command.endpointId, SQL_STATES.terminated, 'open'));
};
