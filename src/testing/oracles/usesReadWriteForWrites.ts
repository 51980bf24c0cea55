/**
 * Oracle: the client never picks a read_only compute (a read replica) when it needs to write: every
 * connection it opened for writes went to a read_write compute.
 */
import type { ClientOracle } from './clientOracle.js';

/** Connections opened for writes go to read_write computes. */
export function usesReadWriteForWrites(): ClientOracle {
  return {
    name: 'usesReadWriteForWrites',
    check(record) {
      for (const connection of record.connections) {
        if (connection.purpose !== 'write' || connection.endpointType === 'read_write') continue;
        return {
          oracle: 'usesReadWriteForWrites',
          at: connection.at,
          connectionIndex: connection.index,
          message: `connection #${connection.index} for writes went to compute ${connection.endpointId}, which is ${connection.endpointType ?? 'not found'}`,
        };
      }
      return undefined;
    },
  };
}
