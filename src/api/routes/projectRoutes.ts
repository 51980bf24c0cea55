/**
 * Project routes: create (with its default branch, primary compute and operations), list, get, delete.
 */
import type { ProjectCreated } from '../../model/events.js';
import { errorResponse } from '../apiResponse.js';
import { BodyReader } from '../bodyReader.js';
import { branchDto, endpointDto, projectDto } from '../dto.js';
import { readNewSettings } from '../endpointSettingsBody.js';
import type { Route } from '../route.js';
import { findProject } from './lookup.js';
import { executed, proxyHostOf, recordedOperations } from './responses.js';

/** POST /projects */
export const createProjectRoute: Route = {
  method: 'POST',
  pattern: '/projects',
  handle({ body, target }) {
    const project = BodyReader.ofBody(body).object_('project');
    const name = project.string('name', /^.{1,64}$/su, 'a string of 1 to 64 characters');
    const regionId = project.string(
      'region_id',
      /^[a-z0-9-]{1,60}$/,
      'a region id such as aws-us-east-2',
    );
    const branchName = project
      .object_('branch')
      .string('name', /^.{1,256}$/su, 'a branch name of 1 to 256 characters');
    const defaults = project.object_('default_endpoint_settings');
    const provisioner = project.oneOf('provisioner', ['k8s-pod', 'k8s-neonvm'] as const);
    const endpoint = readNewSettings(defaults, provisioner === undefined ? {} : { provisioner });
    if (project.problem !== undefined) return errorResponse(project.problem);
    const result = target.execute({
      type: 'CreateProject',
      endpoint,
      ...(name === undefined ? {} : { name }),
      ...(regionId === undefined ? {} : { regionId }),
      ...(branchName === undefined ? {} : { branchName }),
    });
    return executed(result, (events) => {
      const { projectId } = events.find(
        (e): e is ProjectCreated => e.type === 'ProjectCreated',
      ) as ProjectCreated;
      const created = target.state.projects[projectId];
      if (created === undefined) throw new Error('created project missing from state');
      const branch = created.branches[created.defaultBranchId];
      return {
        status: 201,
        body: {
          project: projectDto(created, proxyHostOf(created, target.profile.hostDomain)),
          connection_uris: [],
          roles: [],
          databases: [],
          operations: recordedOperations(target, projectId, events),
          branch: branch === undefined ? undefined : branchDto(branch),
          endpoints: Object.values(created.endpoints).map(endpointDto),
        },
      };
    });
  },
};

/** GET /projects */
export const listProjectsRoute: Route = {
  method: 'GET',
  pattern: '/projects',
  handle({ target, onlyProject }) {
    const projects = Object.values(target.state.projects)
      .filter((p) => onlyProject === undefined || p.id === onlyProject)
      .map((p) => projectDto(p, proxyHostOf(p, target.profile.hostDomain)));
    return { status: 200, body: { projects } };
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
        project: projectDto(project.value, proxyHostOf(project.value, target.profile.hostDomain)),
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
    const record = projectDto(project.value, proxyHostOf(project.value, target.profile.hostDomain));
    return executed(target.execute({ type: 'DeleteProject', projectId: project.value.id }), () => ({
      status: 200,
      body: { project: record },
    }));
  },
};
