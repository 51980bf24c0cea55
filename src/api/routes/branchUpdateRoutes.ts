/**
 * More branch routes: update (rename, protect), set as default, count, and the computes of a branch.
 */
import type { BranchUpdateRequest } from '@neondatabase/api-client';
import { errorResponse } from '../apiResponse.js';
import { branchDto, endpointDto } from '../dto.js';
import { presentFields } from '../presentFields.js';
import type { RequestTarget } from '../requestTarget.js';
import type { Route } from '../route.js';
import { matchesSearch } from './listingQuery.js';
import { findBranch, findProject } from './lookup.js';
import { executed, recordedOperations } from './responses.js';
import type { DomainEvent } from '../../model/events.js';

/** `{ branch, operations }` for a branch after a command changed it. */
function branchOperations(
  target: RequestTarget,
  projectId: string,
  branchId: string,
  events: readonly DomainEvent[],
) {
  const branch = target.state.projects[projectId]?.branches[branchId];
  if (branch === undefined) throw new Error('changed branch missing from state');
  return {
    status: 200,
    body: { branch: branchDto(branch), operations: recordedOperations(target, projectId, events) },
  };
}

/** PATCH /projects/{project_id}/branches/{branch_id} */
export const updateBranchRoute: Route<BranchUpdateRequest> = {
  method: 'PATCH',
  pattern: '/projects/{project_id}/branches/{branch_id}',
  handle({ params, body, target }) {
    const found = findBranch(target, params);
    if (!found.ok) return errorResponse(found.error);
    const { branch } = body;
    const { projectId, id } = found.value;
    const result = target.execute({
      type: 'UpdateBranch',
      projectId,
      branchId: id,
      ...presentFields({ name: branch.name, protected: branch.protected }),
    });
    return executed(result, (events) => branchOperations(target, projectId, id, events));
  },
};

/** POST /projects/{project_id}/branches/{branch_id}/set_as_default */
export const setDefaultBranchRoute: Route = {
  method: 'POST',
  pattern: '/projects/{project_id}/branches/{branch_id}/set_as_default',
  handle({ params, target }) {
    const found = findBranch(target, params);
    if (!found.ok) return errorResponse(found.error);
    const { projectId, id } = found.value;
    const result = target.execute({ type: 'SetDefaultBranch', projectId, branchId: id });
    return executed(result, (events) => branchOperations(target, projectId, id, events));
  },
};

/** GET /projects/{project_id}/branches/count?search= (a name substring, ignoring case) */
export const countBranchesRoute: Route = {
  method: 'GET',
  pattern: '/projects/{project_id}/branches/count',
  handle({ params, query, target }) {
    const project = findProject(target, params);
    if (!project.ok) return errorResponse(project.error);
    const search = query.get('search');
    const count = Object.values(project.value.branches).filter((b) =>
      matchesSearch(search, b.name),
    ).length;
    return { status: 200, body: { count } };
  },
};

/** GET /projects/{project_id}/branches/{branch_id}/endpoints */
export const listBranchEndpointsRoute: Route = {
  method: 'GET',
  pattern: '/projects/{project_id}/branches/{branch_id}/endpoints',
  handle({ params, target }) {
    const found = findBranch(target, params);
    if (!found.ok) return errorResponse(found.error);
    const project = target.state.projects[found.value.projectId];
    const endpoints = Object.values(project?.endpoints ?? {}).filter(
      (e) => e.branchId === found.value.id,
    );
    return { status: 200, body: { endpoints: endpoints.map(endpointDto) } };
  },
};
