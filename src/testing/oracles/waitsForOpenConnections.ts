/**
 * Oracle: the client runs statements only on connections that are open. A connection to a compute
 * that is starting is `connecting` until the start ends; a statement sent meanwhile is refused
 * (08003) and does not throw, so a client that assumes its compute is active right after asking
 * for a start loses its work silently. A statement refused on a connection that was dropped (the
 * compute restarted or suspended under it) says nothing of the client: that is how it learns of
 * the drop, and reconnecting is for it to do next.
 */
import type { ClientOracle } from './clientOracle.js';

/** Statements wait for their connection to open. */
export function waitsForOpenConnections(): ClientOracle {
  return {
    name: 'waitsForOpenConnections',
    check(record) {
      for (const statement of record.statements ?? []) {
        if (statement.connectionState !== 'connecting' || statement.refused === undefined) continue;
        const connection = record.connections[statement.connectionIndex];
        return {
          oracle: 'waitsForOpenConnections',
          at: statement.at,
          connectionIndex: statement.connectionIndex,
          message: `a ${statement.kind} on connection #${statement.connectionIndex} to ${connection?.endpointId ?? 'a compute'} was sent while it was still connecting (its compute was starting) and refused with ${statement.refused.sqlstate}: wait until the connection is open`,
        };
      }
      return undefined;
    },
  };
}
