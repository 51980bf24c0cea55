/**
 * Recovering deleted projects and branches within their window (`POST …/recover`), and the fields
 * that say how long a deleted one stays recoverable.
 */
import { formatBodyInstant } from '../bodyInstant.js';
import { errorResponse } from '../apiResponse.js';
import { branchDto, endpointDto, projectDto } from '../dto.js';
import type { Route } from '../route.js';
import type { DeletedBranchState } from '../../model/state.js';
import { findProject } from './lookup.js';
import { executed, proxyHostOf } from './responses.js';

/** POST /projects/{project_id}/recover: the project back, with its branches (200). */
export const recoverProjectRoute: Route = {
  method: 'POST',
  pattern: '/projects/{project_id}/recover',
  handle({ params, target }) {
    const projectId = params['project_id'] ?? '';
    return executed(target.execute({ type: 'RecoverProject', projectId }), () => {
      const project = target.state.projects[projectId];
      if (project === undefined) throw new Error('recovered project missing from state');
      return {
        status: 200,
        body: {
          project: projectDto(project, proxyHostOf(project, target.profile.hostDomain), target.now),
          branches: Object.values(project.branches).map(branchDto),
        },
      };
    });
  },
};

/** POST /projects/{project_id}/branches/{branch_id}/recover: the branch back, with its computes (200). */
export const recoverBranchRoute: Route = {
  method: 'POST',
  pattern: '/projects/{project_id}/branches/{branch_id}/recover',
  handle({ params, target }) {
    const project = findProject(target, params);
    if (!project.ok) return errorResponse(project.error);
    const projectId = project.value.id;
    const branchId = params['branch_id'] ?? '';
    return executed(target.execute({ type: 'RecoverBranch', projectId, branchId }), () => {
      const after = target.state.projects[projectId];
      const branch = after?.branches[branchId];
      if (after === undefined || branch === undefined)
        throw new Error('recovered branch missing from state');
      const endpoints = Object.values(after.endpoints).filter((e) => e.branchId === branchId);
      return {
        status: 200,
        body: { branch: branchDto(branch), endpoints: endpoints.map(endpointDto) },
      };
    });
  },
};

/** When a deleted object was deleted and until when it is recoverable, as a listing shows them. */
export function deletionDto(kept: {
  readonly deletedAt: number;
  readonly recoverableUntil: number;
}): { deleted_at: string; recoverable_until: string } {
  return {
    deleted_at: formatBodyInstant(kept.deletedAt),
    recoverable_until: formatBodyInstant(kept.recoverableUntil),
  };
}

/** A deleted branch as `GET …/branches?include_deleted=true` lists it: with its `recovery`. */
export function deletedBranchDto(kept: DeletedBranchState): Record<string, unknown> {
  return { ...branchDto(kept.branch), recovery: { ...deletionDto(kept), deletion_method: 'user' } };
}
