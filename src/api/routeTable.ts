/**
 * The route table: every route of the REST surface, in one list. The in-process `sim.request` and
 * the HTTP facade both dispatch through it.
 */
import type { Route } from './route.js';
import {
  createBranchRoute,
  deleteBranchRoute,
  getBranchRoute,
  listBranchesRoute,
} from './routes/branchRoutes.js';
import {
  createEndpointRoute,
  deleteEndpointRoute,
  getEndpointRoute,
  listEndpointsRoute,
  restartEndpointRoute,
  startEndpointRoute,
  suspendEndpointRoute,
  updateEndpointRoute,
} from './routes/endpointRoutes.js';
import { getOperationRoute, listOperationsRoute } from './routes/operationRoutes.js';
import {
  createProjectRoute,
  deleteProjectRoute,
  getProjectRoute,
  listProjectsRoute,
} from './routes/projectRoutes.js';
import { currentUserOrganizationsRoute, currentUserRoute } from './routes/userRoutes.js';
import { createApiKeyRoute, listApiKeysRoute, revokeApiKeyRoute } from './routes/apiKeyRoutes.js';
import { projectConsumptionRoute } from './routes/consumptionRoutes.js';

import { updateProjectRoute, listSharedProjectsRoute } from './routes/projectUpdateRoutes.js';
import {
  countBranchesRoute,
  listBranchEndpointsRoute,
  setDefaultBranchRoute,
  updateBranchRoute,
} from './routes/branchUpdateRoutes.js';
import { restoreBranchRoute } from './routes/branchRestoreRoute.js';
import {
  createRoleRoute,
  deleteRoleRoute,
  getRoleRoute,
  listRolesRoute,
  resetRolePasswordRoute,
  revealRolePasswordRoute,
} from './routes/roleRoutes.js';
import {
  createDatabaseRoute,
  deleteDatabaseRoute,
  getDatabaseRoute,
  listDatabasesRoute,
  updateDatabaseRoute,
} from './routes/databaseRoutes.js';
import { connectionUriRoute } from './routes/connectionUriRoute.js';
import { recoverBranchRoute, recoverProjectRoute } from './routes/recoveryRoutes.js';

/** Every route, relative to `/api/v2`. */
export const ROUTES: readonly Route[] = [
  createProjectRoute,
  listProjectsRoute,
  getProjectRoute,
  deleteProjectRoute,
  createBranchRoute,
  listBranchesRoute,
  getBranchRoute,
  deleteBranchRoute,
  recoverProjectRoute,
  recoverBranchRoute,
  createEndpointRoute,
  listEndpointsRoute,
  getEndpointRoute,
  updateEndpointRoute,
  deleteEndpointRoute,
  startEndpointRoute,
  suspendEndpointRoute,
  restartEndpointRoute,
  listOperationsRoute,
  getOperationRoute,
  currentUserRoute,
  currentUserOrganizationsRoute,
  createApiKeyRoute,
  listApiKeysRoute,
  revokeApiKeyRoute,
  projectConsumptionRoute,
  updateProjectRoute,
  listSharedProjectsRoute,
  updateBranchRoute,
  setDefaultBranchRoute,
  restoreBranchRoute,
  countBranchesRoute,
  listBranchEndpointsRoute,
  listRolesRoute,
  createRoleRoute,
  getRoleRoute,
  deleteRoleRoute,
  revealRolePasswordRoute,
  resetRolePasswordRoute,
  listDatabasesRoute,
  createDatabaseRoute,
  getDatabaseRoute,
  updateDatabaseRoute,
  deleteDatabaseRoute,
  connectionUriRoute,
];
