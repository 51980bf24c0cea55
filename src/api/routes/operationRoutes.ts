/**
 * Operation routes: list a project's operations (newest first) and get one for polling.
 */
import { errorResponse } from '../apiResponse.js';
import { operationDto } from '../dto.js';
import type { Route } from '../route.js';
import { findOperation, findProject } from './lookup.js';

/** GET /projects/{project_id}/operations */
export const listOperationsRoute: Route = {
  method: 'GET',
  pattern: '/projects/{project_id}/operations',
  handle({ params, target }) {
    const project = findProject(target, params);
    if (!project.ok) return errorResponse(project.error);
    const operations = Object.values(project.value.operations).reverse().map(operationDto);
    return { status: 200, body: { operations } };
  },
};

/** GET /projects/{project_id}/operations/{operation_id} */
export const getOperationRoute: Route = {
  method: 'GET',
  pattern: '/projects/{project_id}/operations/{operation_id}',
  handle({ params, target }) {
    const operation = findOperation(target, params);
    if (!operation.ok) return errorResponse(operation.error);
    return { status: 200, body: { operation: operationDto(operation.value) } };
  },
};
