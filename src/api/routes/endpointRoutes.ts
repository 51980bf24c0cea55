/**
 * Compute (endpoint) routes: create, list, get, update, delete, and the start, suspend and restart
 * controls. Mutations answer with the compute as it stands after the request and the operations the
 * request recorded.
 */
import type { EndpointCreated } from '../../model/events.js';
import type { RequestCommand } from '../../model/commands.js';
import { errorResponse, type ApiResponse } from '../apiResponse.js';
import { BodyReader } from '../bodyReader.js';
import { endpointDto } from '../dto.js';
import { newComputeBase } from '../endpointDefaultsBody.js';
import { readEndpointType, readNewSettings, readSettingChanges } from '../endpointSettingsBody.js';
import type { Route, RouteInput } from '../route.js';
import { findEndpoint, findProject } from './lookup.js';
import { executed, recordedOperations } from './responses.js';

const ID = /^[a-z0-9-]{1,60}$/;

/** POST /projects/{project_id}/endpoints */
export const createEndpointRoute: Route = {
  method: 'POST',
  pattern: '/projects/{project_id}/endpoints',
  handle({ params, body, target }) {
    const project = findProject(target, params);
    if (!project.ok) return errorResponse(project.error);
    const endpoint = BodyReader.ofBody(body).object_('endpoint');
    const branchId = endpoint.string('branch_id', ID, 'a branch id');
    if (branchId === undefined) endpoint.fail('endpoint.branch_id is required');
    const endpointType = readEndpointType(endpoint);
    const settings = readNewSettings(
      endpoint,
      newComputeBase(project.value.defaultEndpointSettings),
    );
    const regionId = endpoint.string('region_id', ID, 'a region id');
    if (regionId !== undefined && regionId !== project.value.regionId)
      endpoint.fail(`endpoint.region_id must be the project's region, ${project.value.regionId}`);
    if (endpoint.problem !== undefined) return errorResponse(endpoint.problem);
    const command = {
      type: 'CreateEndpoint',
      projectId: project.value.id,
      branchId: branchId as string,
      endpointType,
      settings,
    } as const;
    return executed(target.execute(command), (events) => {
      const { endpointId } = events.find(
        (e): e is EndpointCreated => e.type === 'EndpointCreated',
      ) as EndpointCreated;
      return answer(201, project.value.id, endpointId, events, target);
    });
  },
};

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

/** PATCH /projects/{project_id}/endpoints/{endpoint_id} */
export const updateEndpointRoute: Route = {
  method: 'PATCH',
  pattern: '/projects/{project_id}/endpoints/{endpoint_id}',
  handle({ params, body, target }) {
    const found = findEndpoint(target, params);
    if (!found.ok) return errorResponse(found.error);
    const reader = BodyReader.ofBody(body).object_('endpoint');
    const branchId = reader.string('branch_id', ID, 'a branch id');
    const changes = readSettingChanges(reader);
    if (reader.problem !== undefined) return errorResponse(reader.problem);
    const { projectId, id } = found.value;
    const command = {
      type: 'UpdateEndpoint',
      projectId,
      endpointId: id,
      changes: { ...changes, ...(branchId === undefined ? {} : { branchId }) },
    } as const;
    return executed(target.execute(command), (events) =>
      answer(200, projectId, id, events, target),
    );
  },
};

/** DELETE /projects/{project_id}/endpoints/{endpoint_id}: 204 when the compute does not exist (any more). */
export const deleteEndpointRoute: Route = {
  method: 'DELETE',
  pattern: '/projects/{project_id}/endpoints/{endpoint_id}',
  handle({ params, target }) {
    const project = findProject(target, params);
    if (!project.ok) return errorResponse(project.error);
    const found = findEndpoint(target, params);
    if (!found.ok) return { status: 204, body: undefined };
    const record = endpointDto(found.value);
    const { projectId, id } = found.value;
    return executed(
      target.execute({ type: 'DeleteEndpoint', projectId, endpointId: id }),
      (events) => ({
        status: 200,
        body: { endpoint: record, operations: recordedOperations(target, projectId, events) },
      }),
    );
  },
};

/** A compute control route: POST …/start, …/suspend, …/restart. */
function controlRoute(
  verb: 'start' | 'suspend' | 'restart',
  type: 'StartEndpoint' | 'SuspendEndpoint' | 'RestartEndpoint',
): Route {
  return {
    method: 'POST',
    pattern: `/projects/{project_id}/endpoints/{endpoint_id}/${verb}`,
    handle({ params, target }: RouteInput) {
      const found = findEndpoint(target, params);
      if (!found.ok) return errorResponse(found.error);
      const { projectId, id } = found.value;
      const command: RequestCommand = { type, projectId, endpointId: id };
      return executed(target.execute(command), (events) =>
        answer(200, projectId, id, events, target),
      );
    },
  };
}

/** POST /projects/{project_id}/endpoints/{endpoint_id}/start */
export const startEndpointRoute = controlRoute('start', 'StartEndpoint');
/** POST /projects/{project_id}/endpoints/{endpoint_id}/suspend */
export const suspendEndpointRoute = controlRoute('suspend', 'SuspendEndpoint');
/** POST /projects/{project_id}/endpoints/{endpoint_id}/restart */
export const restartEndpointRoute = controlRoute('restart', 'RestartEndpoint');

/** `{ endpoint, operations }` as they stand after a request. */
function answer(
  status: number,
  projectId: string,
  endpointId: string,
  events: Parameters<typeof recordedOperations>[2],
  target: RouteInput['target'],
): ApiResponse {
  const endpoint = target.state.projects[projectId]?.endpoints[endpointId];
  if (endpoint === undefined) throw new Error(`endpoint ${endpointId} missing after a request`);
  return {
    status,
    body: {
      endpoint: endpointDto(endpoint),
      operations: recordedOperations(target, projectId, events),
    },
  };
}
