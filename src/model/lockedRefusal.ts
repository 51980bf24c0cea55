/**
 * The refusal of a command with 423 (an unfinished operation locks what it names). When an API
 * request issued the command, the refusal carries its record, `RequestLocked`, so metrics (a pure
 * projection of the log) can count how often clients ran into locks.
 */
import type { Rejection } from '../domain/rejection.js';
import type { Requested } from './commands.js';
import type { Refusal } from './decideContext.js';

/** Refuses `command` with `locked`, recording the request that issued it (if one did). */
export function lockedRefusal(
  locked: Rejection,
  command: Requested & { readonly projectId: string },
  named: { readonly endpointId?: string | undefined; readonly branchId?: string | undefined },
): Refusal {
  const request = command.request;
  if (request === undefined) return { ok: false, error: locked };
  return {
    ok: false,
    error: locked,
    records: [
      {
        type: 'RequestLocked',
        projectId: command.projectId,
        method: request.method,
        route: request.route,
        ...(named.endpointId === undefined ? {} : { endpointId: named.endpointId }),
        ...(named.branchId === undefined ? {} : { branchId: named.branchId }),
      },
    ],
  };
}
