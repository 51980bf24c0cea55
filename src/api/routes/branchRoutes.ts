/**
 * Branch routes: create (with computes or without), list, get, delete a non-default branch.
 */
import type { BranchCreateRequest } from '@neondatabase/api-client';
import type { BranchCreated } from '../../model/branchEventTypes.js';
import type { NewEndpoint } from '../../model/commands.js';
import { errorResponse } from '../apiResponse.js';
import { newComputeBase } from '../endpointDefaultsBody.js';
import {
  branchAnnotationDto,
  branchDto,
  connectionUrisDto,
  databaseDto,
  endpointDto,
  roleDto,
} from '../dto.js';
import { newBranchCompute } from '../endpointSettingsBody.js';
import { presentFields } from '../presentFields.js';
import type { Route } from '../route.js';
import { findBranch, findProject } from './lookup.js';
import { executed, recordedOperations } from './responses.js';
import { flag } from './listingQuery.js';
import { deletedBranchDto } from './recoveryRoutes.js';

/** POST /projects/{project_id}/branches (the body is optional) */
export const createBranchRoute: Route<BranchCreateRequest | undefined> = {
  method: 'POST',
  pattern: '/projects/{project_id}/branches',
  handle({ params, body, target }) {
    const project = findProject(target, params);
    if (!project.ok) return errorResponse(project.error);
    const defaults = newComputeBase(project.value.defaultEndpointSettings);
    const endpoints: NewEndpoint[] = [];
    for (const [i, options] of (body?.endpoints ?? []).entries()) {
      const endpoint = newBranchCompute(options, defaults, `endpoints[${i}]`);
      if (!endpoint.ok) return errorResponse(endpoint.error);
      endpoints.push(endpoint.value);
    }
    const branch = body?.branch ?? {};
    const result = target.execute({
      type: 'CreateBranch',
      projectId: project.value.id,
      endpoints,
      ...presentFields({ name: branch.name, parentId: branch.parent_id }),
    });
    return executed(result, (events) => {
      const { branchId } = events.find(
        (e): e is BranchCreated => e.type === 'BranchCreated',
      ) as BranchCreated;
      const after = target.state.projects[project.value.id];
      const created = after?.branches[branchId];
      if (after === undefined || created === undefined)
        throw new Error('created branch missing from state');
      const endpoints = Object.values(after.endpoints).filter((e) => e.branchId === branchId);
      return {
        status: 201,
        body: {
          branch: branchDto(created),
          endpoints: endpoints.map(endpointDto),
          operations: recordedOperations(target, project.value.id, events),
          roles: created.roles.map((r) => roleDto(branchId, r, true)),
          databases: created.databases.map((d) => databaseDto(branchId, d)),
          connection_uris: connectionUrisDto(created, endpoints, target.postgresFront),
        },
      };
    });
  },
};

/** GET /projects/{project_id}/branches[?include_deleted=true] (deleted ones last, with their `recovery`) */
export const listBranchesRoute: Route = {
  method: 'GET',
  pattern: '/projects/{project_id}/branches',
  handle({ params, target, query }) {
    const project = findProject(target, params);
    if (!project.ok) return errorResponse(project.error);
    const includeDeleted = flag(query, 'include_deleted');
    if (!includeDeleted.ok) return errorResponse(includeDeleted.error);
    const deleted = includeDeleted.value
      ? Object.values(project.value.deletedBranches ?? {})
          .filter((kept) => kept.recoverableUntil > target.now)
          .map(deletedBranchDto)
      : [];
    return {
      status: 200,
      body: {
        branches: [...Object.values(project.value.branches).map(branchDto), ...deleted],
        annotations: {},
      },
    };
  },
};

/** GET /projects/{project_id}/branches/{branch_id} */
export const getBranchRoute: Route = {
  method: 'GET',
  pattern: '/projects/{project_id}/branches/{branch_id}',
  handle({ params, target }) {
    const branch = findBranch(target, params);
    if (!branch.ok) return errorResponse(branch.error);
    return {
      status: 200,
      body: { branch: branchDto(branch.value), annotation: branchAnnotationDto(branch.value) },
    };
  },
};

/** DELETE /projects/{project_id}/branches/{branch_id}[?hard_delete=true] (recoverable unless hard) */
export const deleteBranchRoute: Route = {
  method: 'DELETE',
  pattern: '/projects/{project_id}/branches/{branch_id}',
  handle({ params, target, query }) {
    const project = findProject(target, params);
    if (!project.ok) return errorResponse(project.error);
    const hardDelete = flag(query, 'hard_delete');
    if (!hardDelete.ok) return errorResponse(hardDelete.error);
    const branch = findBranch(target, params);
    if (!branch.ok) return { status: 204, body: undefined };
    const record = branchDto(branch.value);
    const { projectId, id } = branch.value;
    return executed(
      target.execute({
        type: 'DeleteBranch',
        projectId,
        branchId: id,
        ...(hardDelete.value ? { hardDelete: true } : {}),
      }),
      (events) => ({
        status: 200,
        body: { branch: record, operations: recordedOperations(target, projectId, events) },
      }),
    );
  },
};
