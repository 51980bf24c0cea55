/**
 * Compute (endpoint) routes: list a project's computes and get one.
 */
import { errorResponse } from '../apiResponse.js';
import { endpointDto } from '../dto.js';
import type { Route } from '../route.js';
import { findEndpoint, findProject } from './lookup.js';

/** GET /projects/{project_id}/endpoints */
export const listEndpointsRoute: Route = {
  method: 'GET',
  pattern: '/projects/{project_id}/endpoints',
  handle({ params, target }) {
    const project = findProject(target, params);
    if (!project.ok) return errorResponse(project.error);
    return {
      status: 200,
      body: { endpoints: Object.values(project.value.endpoints).map(endpointDto) },
    };
  },
};

/** GET /projects/{project_id}/endpoints/{endpoint_id} */
export const getEndpointRoute: Route = {
  method: 'GET',
  pattern: '/projects/{project_id}/endpoints/{endpoint_id}',
  handle({ params, target }) {
    const endpoint = findEndpoint(target, params);
    if (!endpoint.ok) return errorResponse(endpoint.error);
    return { status: 200, body: { endpoint: endpointDto(endpoint.value) } };
  },
};
