/**
 * Project routes: create (with its default branch, primary compute and operations), list, get, delete.
 */
import type { ProjectCreateRequest } from '@neondatabase/api-client';
import type { ProjectCreated } from '../../model/projectEventTypes.js';
import { errorResponse } from '../apiResponse.js';
import {
  branchDto,
  connectionUrisDto,
  databaseDto,
  endpointDto,
  projectDto,
  projectListItemDto,
  roleDto,
} from '../dto.js';
import { reject } from '../../domain/rejection.js';
import { projectRegionProblem } from '../../domain/regions.js';
import { newSettings } from '../endpointSettingsBody.js';
import { endpointDefaults, newComputeBase } from '../endpointDefaultsBody.js';
import { presentFields } from '../presentFields.js';
import type { Route } from '../route.js';
import { findProject } from './lookup.js';
import { flag, matchesSearch, pageAfter, pageLimit } from './listingQuery.js';
import { deletionDto } from './recoveryRoutes.js';
import { executed, proxyHostOf, recordedOperations } from './responses.js';

/** POST /projects */
export const createProjectRoute: Route<ProjectCreateRequest> = {
  method: 'POST',
  pattern: '/projects',
  handle({ body, target }) {
    const { project } = body;
    const regionProblem =
      project.region_id === undefined
        ? undefined
        : projectRegionProblem(project.region_id, target.profile.regionId);
    if (regionProblem !== undefined)
      return errorResponse(reject('invalid_input', `project.region_id: ${regionProblem}`));
    const kept = endpointDefaults(project.default_endpoint_settings);
    // The deprecated top-level limits still work when default_endpoint_settings does not give them.
    const legacy = presentFields({
      minCu: project.autoscaling_limit_min_cu,
      maxCu: project.autoscaling_limit_max_cu,
    });
    const endpoint = newSettings(
      presentFields({ provisioner: project.provisioner }),
      { ...legacy, ...newComputeBase(kept) },
      'project',
    );
    if (!endpoint.ok) return errorResponse(endpoint.error);
    const branch = project.branch ?? {};
    const result = target.execute({
      type: 'CreateProject',
      endpoint: endpoint.value,
      ...presentFields({
        name: project.name,
        regionId: project.region_id,
        branchName: branch.name,
        roleName: branch.role_name,
        databaseName: branch.database_name,
        pgVersion: project.pg_version,
        historyRetentionSeconds: project.history_retention_seconds,
        defaultEndpointSettings: kept,
      }),
    });
    return executed(result, (events) => {
      const { projectId } = events.find(
        (e): e is ProjectCreated => e.type === 'ProjectCreated',
      ) as ProjectCreated;
      const created = target.state.projects[projectId];
      if (created === undefined) throw new Error('created project missing from state');
      const branch = created.branches[created.defaultBranchId];
      const endpoints = Object.values(created.endpoints);
      return {
        status: 201,
        body: {
          project: projectDto(created, proxyHostOf(created, target.profile.hostDomain), target.now),
          connection_uris:
            branch === undefined ? [] : connectionUrisDto(branch, endpoints, target.postgresFront),
          roles: branch === undefined ? [] : branch.roles.map((r) => roleDto(branch.id, r, true)),
          databases:
            branch === undefined ? [] : branch.databases.map((d) => databaseDto(branch.id, d)),
          operations: recordedOperations(target, projectId, events),
          branch: branch === undefined ? undefined : branchDto(branch),
          endpoints: endpoints.map(endpointDto),
        },
      };
    });
  },
};

/**
 * GET /projects?limit=&cursor=&search=&org_id= (limit 1..400, default 10; the cursor is the last
 * project id returned; `search` keeps projects whose name or id contains it, ignoring case). The
 * simulator serves one account, which owns every project: `org_id` is checked for shape and narrows
 * nothing. `recoverable=true` lists the deleted projects still within their recovery window instead
 * (with `deleted_at` and `recoverable_until`).
 */
export const listProjectsRoute: Route = {
  method: 'GET',
  pattern: '/projects',
  handle({ target, query, onlyProject }) {
    const limit = pageLimit(query);
    if (!limit.ok) return errorResponse(limit.error);
    const orgId = query.get('org_id');
    if (orgId !== null && !/^[a-z0-9-]{1,60}$/.test(orgId))
      return errorResponse(
        reject('invalid_input', `org_id must be an organization id, got ${JSON.stringify(orgId)}`),
      );
    const recoverable = flag(query, 'recoverable');
    if (!recoverable.ok) return errorResponse(recoverable.error);
    const cursor = query.get('cursor');
    const kept = recoverable.value
      ? Object.values(target.state.deletedProjects ?? {}).filter(
          (d) => d.recoverableUntil > target.now,
        )
      : [];
    const deletion = new Map(kept.map((d) => [d.project.id, deletionDto(d)]));
    const listed = recoverable.value
      ? kept.map((d) => d.project)
      : Object.values(target.state.projects);
    const all = listed.filter(
      (p) =>
        (onlyProject === undefined || p.id === onlyProject) &&
        matchesSearch(query.get('search'), p.name, p.id),
    );
    const paged = pageAfter(all, cursor ?? undefined, limit.value);
    if (!paged.ok) return errorResponse(paged.error);
    const page = paged.value;
    const last = page[page.length - 1];
    return {
      status: 200,
      body: {
        projects: page.map((p) => ({
          ...projectListItemDto(p, proxyHostOf(p, target.profile.hostDomain), target.now),
          ...deletion.get(p.id),
        })),
        ...(last === undefined ? {} : { pagination: { cursor: last.id } }),
        applications: {},
        integrations: {},
      },
    };
  },
};

/** GET /projects/{project_id} */
export const getProjectRoute: Route = {
  method: 'GET',
  pattern: '/projects/{project_id}',
  handle({ params, target }) {
    const project = findProject(target, params);
    if (!project.ok) return errorResponse(project.error);
    return {
      status: 200,
      body: {
        project: projectDto(
          project.value,
          proxyHostOf(project.value, target.profile.hostDomain),
          target.now,
        ),
      },
    };
  },
};

/** DELETE /projects/{project_id} */
export const deleteProjectRoute: Route = {
  method: 'DELETE',
  pattern: '/projects/{project_id}',
  handle({ params, target }) {
    const project = findProject(target, params);
    if (!project.ok) return errorResponse(project.error);
    const record = projectDto(
      project.value,
      proxyHostOf(project.value, target.profile.hostDomain),
      target.now,
    );
    return executed(target.execute({ type: 'DeleteProject', projectId: project.value.id }), () => ({
      status: 200,
      body: { project: record },
    }));
  },
};
