/**
 * GET /projects/{project_id}/connection_uri: the URI of a role and database through a compute. The
 * branch defaults to the compute's (when `endpoint_id` is given) or else the project's default one;
 * the compute defaults to the branch's read-write one; `pooled=true` goes through the pooler.
 */
import { own } from '../../core/own.js';
import { connectionUri } from '../../domain/connectionUri.js';
import { notFound, reject } from '../../domain/rejection.js';
import { databaseNamed, roleNamed } from '../../model/branchConfig.js';
import { errorResponse } from '../apiResponse.js';
import type { Route } from '../route.js';
import { findProject } from './lookup.js';

/** GET /projects/{project_id}/connection_uri */
export const connectionUriRoute: Route = {
  method: 'GET',
  pattern: '/projects/{project_id}/connection_uri',
  handle({ params, query, target }) {
    const found = findProject(target, params);
    if (!found.ok) return errorResponse(found.error);
    const project = found.value;
    const databaseName = query.get('database_name');
    const roleName = query.get('role_name');
    const pooledText = query.get('pooled');
    const invalid = (message: string) => errorResponse(reject('invalid_input', message));
    if (databaseName === null || databaseName === '')
      return invalid('the query parameter database_name is required');
    if (roleName === null || roleName === '')
      return invalid('the query parameter role_name is required');
    if (pooledText !== null && pooledText !== 'true' && pooledText !== 'false')
      return invalid(`pooled must be true or false, got ${JSON.stringify(pooledText)}`);

    const endpointId = query.get('endpoint_id');
    const named = endpointId === null ? undefined : own(project.endpoints, endpointId);
    if (endpointId !== null && named === undefined)
      return errorResponse(notFound('endpoint', endpointId));
    const branchId = query.get('branch_id') ?? named?.branchId ?? project.defaultBranchId;
    const branch = own(project.branches, branchId);
    if (branch === undefined) return errorResponse(notFound('branch', branchId));
    if (named !== undefined && named.branchId !== branch.id)
      return invalid(`endpoint ${named.id} belongs to branch ${named.branchId}, not ${branch.id}`);
    const endpoint =
      named ??
      Object.values(project.endpoints).find(
        (e) => e.branchId === branch.id && e.type === 'read_write',
      );
    if (endpoint === undefined)
      return errorResponse(
        reject('not_found', `branch ${branch.id} has no read_write endpoint to connect through`),
      );
    const role = roleNamed(branch, roleName);
    if (role === undefined) return errorResponse(notFound('role', roleName));
    const database = databaseNamed(branch, databaseName);
    if (database === undefined) return errorResponse(notFound('database', databaseName));
    const uri = connectionUri(
      { roleName: role.name, password: role.password, host: endpoint.host, databaseName },
      pooledText === 'true',
      target.postgresFront,
    );
    return { status: 200, body: { uri } };
  },
};
