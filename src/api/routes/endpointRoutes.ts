/**
 * Compute (endpoint) routes: create, list, get, update, delete, and the start, suspend and restart
 * controls. Mutations answer with the compute as it stands after the request and the operations the
 * request recorded.
 */
import type { EndpointCreateRequest, EndpointUpdateRequest } from '@neondatabase/api-client';
import { computeRegionProblem } from '../../domain/regions.js';
import { reject } from '../../domain/rejection.js';
import { computeCreated } from '../../model/computeDeclarations.js';
import type { RequestCommand } from '../../model/commands.js';
import { errorResponse, type ApiResponse } from '../apiResponse.js';
import { endpointDto } from '../dto.js';
import { newComputeBase } from '../endpointDefaultsBody.js';
import { newSettings, settingChanges } from '../endpointSettingsBody.js';
import { presentFields } from '../presentFields.js';
import type { Route, RouteInput } from '../route.js';
import { findEndpoint, findProject } from './lookup.js';
import { executed, recordedOperations } from './responses.js';

/** POST /projects/{project_id}/endpoints */
export const createEndpointRoute: Route<EndpointCreateRequest> = {
  method: 'POST',
  pattern: '/projects/{project_id}/endpoints',
  handle({ params, body, target }) {
    const project = findProject(target, params);
    if (!project.ok) return errorResponse(project.error);
    const { endpoint } = body;
    const { regionId } = project.value;
    const regionProblem =
      endpoint.region_id === undefined
        ? undefined
        : computeRegionProblem(endpoint.region_id, regionId);
    if (regionProblem !== undefined)
      return errorResponse(reject('invalid_input', `endpoint.${regionProblem}`));
    const settings = newSettings(
      endpoint,
      newComputeBase(project.value.defaultEndpointSettings),
      'endpoint',
    );
    if (!settings.ok) return errorResponse(settings.error);
    const command = {
      type: 'CreateEndpoint',
      projectId: project.value.id,
      branchId: endpoint.branch_id,
      endpointType: endpoint.type,
      settings: settings.value,
    } as const;
    return executed(target.execute(command), (events) => {
      const endpointId = computeCreated(events) as string;
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
export const updateEndpointRoute: Route<EndpointUpdateRequest> = {
  method: 'PATCH',
  pattern: '/projects/{project_id}/endpoints/{endpoint_id}',
  handle({ params, body, target }) {
    const found = findEndpoint(target, params);
    if (!found.ok) return errorResponse(found.error);
    const { branch_id: branchId, ...fields } = body.endpoint;
    const changes = settingChanges(fields, 'endpoint');
    if (!changes.ok) return errorResponse(changes.error);
    const { projectId, id } = found.value;
    const command = {
      type: 'UpdateEndpoint',
      projectId,
      endpointId: id,
      changes: { ...changes.value, ...presentFields({ branchId }) },
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
