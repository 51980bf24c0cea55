/**
 * The flows of the official client's conformance suite (@neondatabase/api-client), written once
 * against a world that says how virtual time moves: run against `computesim serve` and against a
 * simulation in process, so both can be checked, and compared answer for answer.
 */
import { EndpointType, type Api } from '@neondatabase/api-client';
import { expect } from 'vitest';
import type { SimState } from '../../src/index.js';

/** Where a flow runs: its client, and how it lets virtual time pass. */
export interface OfficialWorld {
  readonly api: Api<unknown>;
  /** Moves virtual time on by `by` (`5s`). */
  advance(by: string): Promise<unknown>;
  /** Lets virtual time run until no foreground work is left. */
  settle(): Promise<unknown>;
  /** The simulation's state now. */
  state(): SimState;
}

/** Creates, waits, adds a replica, resizes, restarts, pages operations, deletes and recovers. */
export async function projectLifecycleFlow(world: OfficialWorld): Promise<void> {
  const api = world.api;
  const waitFor = async (projectId: string, operations: readonly { id: string }[]) => {
    for (const { id } of operations)
      for (let polls = 0; ; polls++) {
        const { data } = await api.getProjectOperation(projectId, id);
        if (data.operation.status === 'finished') break;
        expect(['scheduling', 'running']).toContain(data.operation.status);
        expect(polls).toBeLessThan(20);
        await world.advance('5s');
      }
  };

  const created = await api.createProject({ project: { name: 'official' } });
  expect(created.status).toBe(201);
  const projectId = created.data.project.id;
  const branchId = created.data.branch.id;
  await waitFor(projectId, created.data.operations);

  const replica = await api.createProjectEndpoint(projectId, {
    endpoint: { branch_id: branchId, type: EndpointType.ReadOnly },
  });
  expect(replica.data.endpoint.type).toBe('read_only');
  await waitFor(projectId, replica.data.operations);

  const primaryId = created.data.endpoints[0]!.id;
  const resized = await api.updateProjectEndpoint(projectId, primaryId, {
    endpoint: { autoscaling_limit_min_cu: 0.5, autoscaling_limit_max_cu: 1 },
  });
  expect(resized.data.endpoint.autoscaling_limit_max_cu).toBe(1);
  await waitFor(projectId, resized.data.operations);

  const restarted = await api.restartProjectEndpoint(projectId, primaryId);
  await waitFor(projectId, restarted.data.operations);

  const seen: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const { data } = await api.listProjectOperations({
      projectId,
      limit: 2,
      ...(cursor === undefined ? {} : { cursor }),
    });
    seen.push(...data.operations.map((o) => o.id));
    if (data.operations.length < 2) break;
    cursor = data.pagination?.cursor;
  }
  const total = Object.keys(world.state().projects[projectId]!.operations).length;
  expect(seen).toHaveLength(total);
  expect(new Set(seen).size).toBe(total);

  const deleted = await api.deleteProject(projectId);
  expect(deleted.data.project.id).toBe(projectId);
  await expect(api.getProject(projectId)).rejects.toMatchObject({ response: { status: 404 } });
  const recoverable = await api.listProjects({ recoverable: true });
  expect(recoverable.data.projects.map((p) => p.id)).toEqual([projectId]);
  const recovered = await api.recoverProject(projectId);
  expect(recovered.data.project.id).toBe(projectId);
  expect((await api.getProject(projectId)).data.project.id).toBe(projectId);
  await api.deleteProject(projectId);
}

/** Creates a role and a database, reveals and resets the password, builds URIs and cleans up. */
export async function rolesAndDatabasesFlow(world: OfficialWorld): Promise<void> {
  const api = world.api;
  const created = await api.createProject({ project: { name: 'roles' } });
  const projectId = created.data.project.id;
  const branchId = created.data.branch.id;
  expect(created.data.roles.map((r) => r.name)).toEqual(['neondb_owner']);
  expect(created.data.databases.map((d) => d.name)).toEqual(['neondb']);
  expect(created.data.connection_uris[0]!.connection_uri).toContain(
    `@${created.data.endpoints[0]!.host}/neondb`,
  );
  await world.settle();

  const role = await api.createProjectBranchRole(projectId, branchId, { role: { name: 'app' } });
  expect(role.status).toBe(201);
  // run_until_idle let the compute scale to zero: the change wakes it and suspends it again.
  expect(role.data.operations.map((o) => o.action)).toEqual(['apply_config', 'suspend_compute']);
  await world.settle();
  const database = await api.createProjectBranchDatabase(projectId, branchId, {
    database: { name: 'appdb', owner_name: 'app' },
  });
  expect(database.data.database.owner_name).toBe('app');
  await world.settle();

  const roles = await api.listProjectBranchRoles(projectId, branchId);
  expect(roles.data.roles.map((r) => r.name)).toEqual(['neondb_owner', 'app']);
  const databases = await api.listProjectBranchDatabases(projectId, branchId);
  expect(databases.data.databases.map((d) => d.name)).toEqual(['neondb', 'appdb']);
  const revealed = await api.getProjectBranchRolePassword(projectId, branchId, 'app');
  expect(revealed.data.password).toBe(role.data.role.password);

  const reset = await api.resetProjectBranchRolePassword(projectId, branchId, 'app');
  const password = reset.data.role.password!;
  expect(password).not.toBe(role.data.role.password);
  await world.settle();
  const uri = await api.getConnectionUri({
    projectId,
    role_name: 'app',
    database_name: 'appdb',
    pooled: true,
  });
  expect(uri.data.uri).toMatch(
    new RegExp(`^postgresql://app:${password}@ep-[a-z]+-[a-z]+-\\d{6}-pooler\\..+/appdb\\?`),
  );

  await expect(api.deleteProjectBranchRole(projectId, branchId, 'app')).rejects.toMatchObject({
    response: { status: 409 },
  });
  const renamed = await api.updateProjectBranchDatabase(projectId, branchId, 'appdb', {
    database: { name: 'shop', owner_name: 'neondb_owner' },
  });
  expect(renamed.data.database.name).toBe('shop');
  await world.settle();
  expect((await api.getProjectBranchDatabase(projectId, branchId, 'shop')).status).toBe(200);
  await api.deleteProjectBranchDatabase(projectId, branchId, 'shop');
  await world.settle();
  const deleted = await api.deleteProjectBranchRole(projectId, branchId, 'app');
  expect(deleted.data.role.name).toBe('app');
  await world.settle();
  await expect(api.getProjectBranchRole(projectId, branchId, 'app')).rejects.toMatchObject({
    response: { status: 404 },
  });
}
