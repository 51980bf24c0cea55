/**
 * The route table: every route of the REST surface, in one list. The in-process `sim.request` and
 * the HTTP facade both dispatch through it.
 */
import type { Route } from './route.js';
import { getEndpointRoute, listEndpointsRoute } from './routes/endpointRoutes.js';
import { getOperationRoute, listOperationsRoute } from './routes/operationRoutes.js';
import { createProjectRoute, getProjectRoute } from './routes/projectRoutes.js';

/** Every route, relative to `/api/v2`. */
export const ROUTES: readonly Route[] = [
  createProjectRoute,
  getProjectRoute,
  listEndpointsRoute,
  getEndpointRoute,
  listOperationsRoute,
  getOperationRoute,
];
