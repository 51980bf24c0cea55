/**
 * The oracles a client of the API should satisfy by default, per the spec's rules.
 */
import type { ClientOracle } from './clientOracle.js';
import { handlesFailedOperations } from './handlesFailedOperations.js';
import { pollsNoFasterThan } from './pollsNoFasterThan.js';
import { retriesWithBackoff } from './retriesWithBackoff.js';
import { usesLiveIds } from './usesLiveIds.js';
import { usesReadWriteForWrites } from './usesReadWriteForWrites.js';
import { waitsForOpenConnections } from './waitsForOpenConnections.js';
import { waitsForOperations } from './waitsForOperations.js';

/** Every built-in oracle with its defaults (5 s polling, 1 s minimum retry delay). */
export function defaultOracles(): ClientOracle[] {
  return [
    waitsForOperations(),
    pollsNoFasterThan(),
    retriesWithBackoff(),
    handlesFailedOperations(),
    usesReadWriteForWrites(),
    waitsForOpenConnections(),
    usesLiveIds(),
  ];
}
