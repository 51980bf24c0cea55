/**
 * The objects an event names, found in a state being changed (a working state or an immer draft):
 * `evolve` and the event declarations read them so; a missing one is a bug, and throws.
 */
import type { Draft } from 'immer';
import type { EndpointState, SimState } from './state.js';

type S = Draft<SimState>;

/** The project `projectId`. */
export function projectOf(draft: S, projectId: string): Draft<SimState>['projects'][string] {
  const project = draft.projects[projectId];
  if (project === undefined) throw new Error(`no project ${projectId}`);
  return project;
}

/** The branch `branchId` of a project. */
export function branchOf(draft: S, projectId: string, branchId: string) {
  const branch = projectOf(draft, projectId).branches[branchId];
  if (branch === undefined) throw new Error(`no branch ${branchId} in project ${projectId}`);
  return branch;
}

/** The compute `endpointId` of a project. */
export function endpointOf(draft: S, projectId: string, endpointId: string): Draft<EndpointState> {
  const endpoint = projectOf(draft, projectId).endpoints[endpointId];
  if (endpoint === undefined) throw new Error(`no compute ${endpointId} in project ${projectId}`);
  return endpoint;
}

/** The live operation `operationId` of a project. */
export function operationOf(draft: S, projectId: string, operationId: string) {
  const operation = projectOf(draft, projectId).operations[operationId];
  if (operation === undefined)
    throw new Error(`no operation ${operationId} in project ${projectId}`);
  return operation;
}
