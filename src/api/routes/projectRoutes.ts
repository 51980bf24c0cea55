/**
 * Project routes: create a project (with its default branch, primary compute and operations) and get one.
 */
import type { ProjectCreated } from '../../model/events.js';
import { errorResponse } from '../apiResponse.js';
import { optionalString, wrapped } from '../body.js';
import { branchDto, endpointDto, operationDto, projectDto } from '../dto.js';
import type { Route } from '../route.js';
import { findProject } from './lookup.js';

/** POST /projects */
export const createProjectRoute: Route = {
  method: 'POST',
  pattern: '/projects',
  handle({ body, target }) {
    const fields = wrapped(body, 'project');
    if (!fields.ok) return errorResponse(fields.error);
    const name = optionalString(
      fields.value,
      'name',
      'project',
      /^.{1,64}$/su,
      'a string of 1 to 64 characters',
    );
    if (!name.ok) return errorResponse(name.error);
    const region = optionalString(
      fields.value,
      'region_id',
      'project',
      /^[a-z0-9-]{1,60}$/,
      'a region id such as aws-us-east-2',
    );
    if (!region.ok) return errorResponse(region.error);
    const result = target.execute({
      type: 'CreateProject',
      ...(name.value === undefined ? {} : { name: name.value }),
      ...(region.value === undefined ? {} : { regionId: region.value }),
    });
    if (!result.ok) return errorResponse(result.error);
    const created = result.value.find(
      (e): e is ProjectCreated => e.type === 'ProjectCreated',
    ) as ProjectCreated;
    const project = target.state.projects[created.projectId];
    if (project === undefined) throw new Error('created project missing from state');
    const branch = project.branches[project.defaultBranchId];
    const endpoints = Object.values(project.endpoints);
    return {
      status: 201,
      body: {
        project: projectDto(project, endpoints[0]?.proxyHost ?? ''),
        branch: branch === undefined ? undefined : branchDto(branch),
        endpoints: endpoints.map(endpointDto),
        operations: Object.values(project.operations).map(operationDto),
        roles: [],
        databases: [],
        connection_uris: [],
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
    const proxyHost = Object.values(project.value.endpoints)[0]?.proxyHost ?? '';
    return { status: 200, body: { project: projectDto(project.value, proxyHost) } };
  },
};
