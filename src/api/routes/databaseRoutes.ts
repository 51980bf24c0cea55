/**
 * Database routes of a branch: list, create, get, update (rename, change owner), delete. Mutations
 * answer with the database and the operations that apply the change to the branch's compute.
 */
import type { DatabaseCreateRequest, DatabaseUpdateRequest } from '@neondatabase/api-client';
import { databaseNamed } from '../../model/branchConfig.js';
import type { DomainEvent } from '../../model/events.js';
import type { BranchState } from '../../model/state.js';
import { errorResponse, type ApiResponse } from '../apiResponse.js';
import { databaseDto } from '../dto.js';
import { presentFields } from '../presentFields.js';
import type { RequestTarget } from '../requestTarget.js';
import type { Route } from '../route.js';
import { findBranch, findDatabase } from './lookup.js';
import { executed, recordedOperations } from './responses.js';

const DATABASES = '/projects/{project_id}/branches/{branch_id}/databases';
const DATABASE = `${DATABASES}/{database_name}`;

/** GET /projects/{project_id}/branches/{branch_id}/databases */
export const listDatabasesRoute: Route = {
  method: 'GET',
  pattern: DATABASES,
  handle({ params, target }) {
    const branch = findBranch(target, params);
    if (!branch.ok) return errorResponse(branch.error);
    const { id, databases } = branch.value;
    return { status: 200, body: { databases: databases.map((d) => databaseDto(id, d)) } };
  },
};

/** POST /projects/{project_id}/branches/{branch_id}/databases */
export const createDatabaseRoute: Route<DatabaseCreateRequest> = {
  method: 'POST',
  pattern: DATABASES,
  handle({ params, body, target }) {
    const branch = findBranch(target, params);
    if (!branch.ok) return errorResponse(branch.error);
    const { name, owner_name: ownerName } = body.database;
    const { projectId, id: branchId } = branch.value;
    const command = { type: 'CreateDatabase', projectId, branchId, name, ownerName } as const;
    return executed(target.execute(command), (events) =>
      answer(201, target, branch.value, name, events),
    );
  },
};

/** GET /projects/{project_id}/branches/{branch_id}/databases/{database_name} */
export const getDatabaseRoute: Route = {
  method: 'GET',
  pattern: DATABASE,
  handle({ params, target }) {
    const found = findDatabase(target, params);
    if (!found.ok) return errorResponse(found.error);
    const { branch, database } = found.value;
    return { status: 200, body: { database: databaseDto(branch.id, database) } };
  },
};

/** PATCH /projects/{project_id}/branches/{branch_id}/databases/{database_name} */
export const updateDatabaseRoute: Route<DatabaseUpdateRequest> = {
  method: 'PATCH',
  pattern: DATABASE,
  handle({ params, body, target }) {
    const found = findDatabase(target, params);
    if (!found.ok) return errorResponse(found.error);
    const { name, owner_name: ownerName } = body.database;
    const { branch, database } = found.value;
    const command = {
      type: 'UpdateDatabase',
      projectId: branch.projectId,
      branchId: branch.id,
      name: database.name,
      changes: presentFields({ name, ownerName }),
    } as const;
    return executed(target.execute(command), (events) =>
      answer(200, target, branch, name ?? database.name, events),
    );
  },
};

/** DELETE /projects/{project_id}/branches/{branch_id}/databases/{database_name} (204 when gone) */
export const deleteDatabaseRoute: Route = {
  method: 'DELETE',
  pattern: DATABASE,
  handle({ params, target }) {
    const branch = findBranch(target, params);
    if (!branch.ok) return errorResponse(branch.error);
    const name = params['database_name'] ?? '';
    const database = databaseNamed(branch.value, name);
    if (database === undefined) return { status: 204, body: undefined };
    const record = databaseDto(branch.value.id, database);
    const { projectId, id: branchId } = branch.value;
    const command = { type: 'DeleteDatabase', projectId, branchId, name } as const;
    return executed(target.execute(command), (events) => ({
      status: 200,
      body: { database: record, operations: recordedOperations(target, projectId, events) },
    }));
  },
};

/** The database as it stands after a command, with the operations the command recorded. */
function answer(
  status: number,
  target: RequestTarget,
  before: BranchState,
  name: string,
  events: readonly DomainEvent[],
): ApiResponse {
  const branch = target.state.projects[before.projectId]?.branches[before.id];
  const database = branch === undefined ? undefined : databaseNamed(branch, name);
  if (database === undefined)
    throw new Error(`database ${name} missing from state after its command`);
  return {
    status,
    body: {
      database: databaseDto(before.id, database),
      operations: recordedOperations(target, before.projectId, events),
    },
  };
}
