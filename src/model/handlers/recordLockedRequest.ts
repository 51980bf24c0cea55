/**
 * RecordLockedRequest: the API refused a request with 423. Records the fact (no state change) so that
 * metrics, a pure projection of the log, can count how often clients ran into locks.
 */
import { own } from '../../core/own.js';
import { err, ok } from '../../core/result.js';
import { reject } from '../../domain/rejection.js';
import type { RecordLockedRequest } from '../commands.js';
import type { Handler, Pending } from '../decideContext.js';

/** Decides the record of a 423 refusal. */
export const recordLockedRequest: Handler<RecordLockedRequest> = (state, command) => {
  if (own(state.projects, command.projectId) === undefined)
    return err(reject('not_found', `project ${command.projectId} not found`));
  return ok<Pending>([
    {
      type: 'RequestLocked',
      projectId: command.projectId,
      method: command.method,
      route: command.route,
      ...(command.endpointId === undefined ? {} : { endpointId: command.endpointId }),
      ...(command.branchId === undefined ? {} : { branchId: command.branchId }),
    },
  ]);
};
