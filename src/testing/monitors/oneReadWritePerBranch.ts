/**
 * Monitor: a branch never has two read_write computes at once.
 */
import { ComputeStates } from './computeStates.js';
import type { Monitor } from './monitor.js';

/** Fires when a second read_write compute appears on a branch (created or moved there). */
export function oneReadWritePerBranch(): Monitor {
  const computes = new ComputeStates();
  const branchOf = new Map<string, string>();
  const writerOf = new Map<string, string>();
  const claim = (branchId: string, endpointId: string) => {
    const other = writerOf.get(branchId);
    if (other !== undefined && other !== endpointId)
      return `branch ${branchId} has two read_write computes: ${other} and ${endpointId}`;
    writerOf.set(branchId, endpointId);
    branchOf.set(endpointId, branchId);
    return undefined;
  };
  const release = (endpointId: string) => {
    const branchId = branchOf.get(endpointId);
    if (branchId === undefined) return;
    branchOf.delete(endpointId);
    if (writerOf.get(branchId) === endpointId) writerOf.delete(branchId);
  };
  return {
    name: 'oneReadWritePerBranch',
    observe(event) {
      for (const endpointId of computes.follow(event)) release(endpointId);
      if (event.type === 'EndpointCreated' && event.endpointType === 'read_write')
        return claim(event.branchId, event.endpointId);
      if (event.type === 'EndpointUpdated' && event.changes.branchId !== undefined) {
        if (!branchOf.has(event.endpointId)) return undefined;
        release(event.endpointId);
        return claim(event.changes.branchId, event.endpointId);
      }
      return undefined;
    },
  };
}
