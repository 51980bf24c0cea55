/**
 * Operation routes: list a project's operations (newest first, paged with `limit` and `cursor`) and
 * get one for polling.
 */
import { errorResponse } from '../apiResponse.js';
import { operationDto } from '../dto.js';
import { formatCursor, parseCursor } from '../operationCursor.js';
import type { Route } from '../route.js';
import { findOperation, findProject } from './lookup.js';
import { reject } from '../../domain/rejection.js';
import { latestOperations } from '../../model/operationStore.js';

/** Page size when a listing gives no `limit`. */
const DEFAULT_OPERATIONS_LIMIT = 10;
const MAX_LIMIT = 1000;

/** GET /projects/{project_id}/operations?limit=&cursor= */
export const listOperationsRoute: Route = {
  method: 'GET',
  pattern: '/projects/{project_id}/operations',
  handle({ params, query, target }) {
    const project = findProject(target, params);
    if (!project.ok) return errorResponse(project.error);
    const limitText = query.get('limit');
    const limit = limitText === null ? DEFAULT_OPERATIONS_LIMIT : Number(limitText);
    if (
      !/^\d+$/.test(limitText ?? '1') ||
      !Number.isInteger(limit) ||
      limit < 1 ||
      limit > MAX_LIMIT
    ) {
      return errorResponse(
        reject(
          'invalid_input',
          `limit must be a whole number from 1 to ${MAX_LIMIT}, got ${JSON.stringify(limitText)}`,
        ),
      );
    }
    const cursorText = query.get('cursor');
    let before = Infinity;
    if (cursorText !== null) {
      const cursor = parseCursor(cursorText);
      if (!cursor.ok) return errorResponse(cursor.error);
      before = cursor.value;
    }
    const page = latestOperations(project.value, before, limit);
    const last = page[page.length - 1];
    const cursor = last === undefined ? cursorText : formatCursor(last.sortKey);
    return {
      status: 200,
      body: {
        operations: page.map(operationDto),
        ...(cursor === null || cursor === undefined ? {} : { pagination: { cursor } }),
      },
    };
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
