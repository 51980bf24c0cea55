/**
 * Monitor: a branch never has two read_write computes at once.
 */
import type { Monitor } from './monitor.js';

/** Fires when a second read_write compute appears on a branch (created or moved there). */
export function oneReadWritePerBranch(): Monitor {
  const branchOf = new Map<string, string>();
  const projectOf = new Map<string, string>();
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
      if (event.type === 'EndpointCreated' && event.endpointType === 'read_write') {
        projectOf.set(event.endpointId, event.projectId);
        return claim(event.branchId, event.endpointId);
      }
      if (event.type === 'ProjectDeleted')
        for (const [endpointId, projectId] of projectOf)
          if (projectId === event.projectId) {
            projectOf.delete(endpointId);
            release(endpointId);
          }
      if (event.type === 'EndpointUpdated' && event.changes.branchId !== undefined) {
        if (!branchOf.has(event.endpointId)) return undefined;
        release(event.endpointId);
        return claim(event.changes.branchId, event.endpointId);
      }
      if (event.type === 'EndpointDeleted') {
        projectOf.delete(event.endpointId);
        release(event.endpointId);
      }
      return undefined;
    },
  };
}
