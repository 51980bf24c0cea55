/**
 * Oracle: the client never picks a read_only compute (a read replica) when it needs to write: every
 * connection it opened for writes to a compute that existed went to a read_write compute. A compute
 * gone by then (deleted alongside the client, as a world may do) says nothing about the client's
 * choice: that connection is refused, and what the client does next is for other oracles to judge.
 */
import type { ClientOracle } from './clientOracle.js';

/** Connections opened for writes go to read_write computes. */
export function usesReadWriteForWrites(): ClientOracle {
  return {
    name: 'usesReadWriteForWrites',
    check(record) {
      for (const connection of record.connections) {
        if (connection.purpose !== 'write' || connection.endpointType !== 'read_only') continue;
        return {
          oracle: 'usesReadWriteForWrites',
          at: connection.at,
          connectionIndex: connection.index,
          message: `connection #${connection.index} for writes went to compute ${connection.endpointId}, which is read_only`,
        };
      }
      return undefined;
    },
  };
}
