/**
 * Roles, databases and connection URIs of a branch through the REST surface: the defaults of a new
 * project, the rules (unique names, owners, no deleting an owner), the operations a change records
 * on the branch's compute, and what a child branch inherits.
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { givenProject } from '../support/given.js';

type Row = { name: string; owner_name?: string; action?: string; status?: string };
const names = (rows: Row[]) => rows.map((r) => r.name);
const actions = (rows: Row[]) => rows.map((r) => `${r.action}:${r.status}`);

/** A settled project with shorthands for the routes of one of its branches. */
function givenBranch() {
  const given = givenProject();
  const { sim, path, branchId } = given;
  const on = (suffix: string, branch = branchId) => path(`/branches/${branch}${suffix}`);
  const createRole = (name: unknown, branch = branchId) =>
    sim.request('POST', on('/roles', branch), { role: { name } });
  const createDatabase = (name: unknown, owner: unknown, branch = branchId) =>
    sim.request('POST', on('/databases', branch), { database: { name, owner_name: owner } });
  return { ...given, on, createRole, createDatabase };
}

describe('a new project', () => {
  it('gives its default branch the owner role neondb_owner and the database neondb it owns', () => {
    const sim = new Simulation({ seed: 3 });
    const created = sim.request('POST', '/projects', { project: { name: 'p' } });
    const { branch, endpoints } = created.body;
    const role = created.body.roles[0];
    expect(created.body.roles).toHaveLength(1);
    expect(role).toMatchObject({ branch_id: branch.id, name: 'neondb_owner' });
    expect(role.password).toMatch(/^npg_[A-Za-z0-9]{12}$/);
    expect(created.body.databases).toMatchObject([
      { branch_id: branch.id, name: 'neondb', owner_name: 'neondb_owner' },
    ]);
    const host = endpoints[0].host as string;
    const poolerHost = host.replace(/^([^.]+)\./, '$1-pooler.');
    expect(created.body.connection_uris).toEqual([
      {
        connection_uri: `postgresql://neondb_owner:${role.password}@${host}/neondb?sslmode=require`,
        connection_parameters: {
          database: 'neondb',
          role: 'neondb_owner',
          password: role.password,
          host,
          pooler_host: poolerHost,
        },
      },
    ]);
  });

  it('draws the same passwords from the same seed, and others from another seed', () => {
    const password = (seed: number) =>
      new Simulation({ seed }).request('POST', '/projects', { project: {} }).body.roles[0]
        .password as string;
    expect(password(5)).toBe(password(5));
    expect(password(5)).not.toBe(password(6));
  });
});

describe('roles', () => {
  it('creates a role with a password on an active compute, recording apply_config', () => {
    const { sim, on, createRole, endpointId } = givenBranch();
    const created = createRole('app');
    expect(created.status).toBe(201);
    expect(created.body.role).toMatchObject({ name: 'app', protected: false });
    expect(created.body.operations).toMatchObject([
      { action: 'apply_config', status: 'running', endpoint_id: endpointId },
    ]);
    expect(names(sim.request('GET', on('/roles')).body.roles)).toEqual(['neondb_owner', 'app']);
    expect(sim.request('GET', on('/roles/app')).body.role).not.toHaveProperty('password');
    expect(sim.request('GET', on('/roles/app/reveal_password')).body).toEqual({
      password: created.body.role.password,
    });
  });

  it('activates an idle compute for the change and suspends it again', () => {
    const { sim, path, endpointId, createRole, settle, endpoint } = givenBranch();
    sim.request('POST', path(`/endpoints/${endpointId}/suspend`));
    settle();
    expect(endpoint().currentState).toBe('idle');
    const created = createRole('app');
    expect(actions(created.body.operations)).toEqual([
      'apply_config:running',
      'suspend_compute:scheduling',
    ]);
    settle();
    expect(endpoint().currentState).toBe('idle');
  });

  it('records no operation on a branch without a compute', () => {
    const { sim, path, createRole, settle } = givenBranch();
    const bare = sim.request('POST', path('/branches'), { branch: { name: 'bare' } });
    settle();
    const created = createRole('app', bare.body.branch.id);
    expect(created.status).toBe(201);
    expect(created.body.operations).toEqual([]);
  });

  it.each([
    ['an empty name', '', 400],
    ['a name over 63 bytes', 'r'.repeat(64), 400],
    ['63 two-byte characters (126 bytes)', 'é'.repeat(63), 400],
    ['a pg_ name', 'pg_monitor2', 400],
    ['a reserved name', 'public', 400],
    ['a number', 42, 400],
    ['no name', undefined, 400],
    ['a taken name', 'neondb_owner', 409],
  ])('refuses %s without changing anything', (_, name, status) => {
    const { sim, createRole } = givenBranch();
    const logged = sim.log.length;
    const before = sim.state;
    const refused = createRole(name);
    expect(refused.status).toBe(status);
    expect(refused.body.message).toEqual(expect.any(String));
    expect(sim.log.length).toBe(logged);
    expect(sim.state).toBe(before);
  });

  it('accepts a name of exactly 63 bytes', () => {
    expect(givenBranch().createRole('r'.repeat(63)).status).toBe(201);
  });

  it('refuses with 423 while an operation locks the branch, and records the refused request', () => {
    const { sim, createRole, createDatabase } = givenBranch();
    expect(createRole('first').status).toBe(201);
    const locked = createDatabase('db', 'first');
    expect(locked.status).toBe(423);
    expect(sim.log.last()).toMatchObject({
      type: 'RequestLocked',
      method: 'POST',
      route: '/projects/{project_id}/branches/{branch_id}/databases',
    });
  });

  it('resets a password: a new one, revealed and used by connection URIs from then on', () => {
    const { sim, on, path, createRole, settle } = givenBranch();
    const first = createRole('app').body.role.password as string;
    settle();
    const reset = sim.request('POST', on('/roles/app/reset_password'));
    expect(reset.status).toBe(200);
    expect(actions(reset.body.operations)).toEqual(['apply_config:running']);
    const second = reset.body.role.password as string;
    expect(second).not.toBe(first);
    expect(sim.request('GET', on('/roles/app/reveal_password')).body.password).toBe(second);
    const uri = sim.request('GET', path('/connection_uri?role_name=app&database_name=neondb'));
    expect(uri.body.uri).toContain(`app:${second}@`);
  });

  it('does not delete a role while it owns a database; deletes it once it owns none', () => {
    const { sim, on, createRole, createDatabase, settle } = givenBranch();
    createRole('app');
    settle();
    createDatabase('appdb', 'app');
    settle();
    const refused = sim.request('DELETE', on('/roles/app'));
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('appdb');
    sim.request('PATCH', on('/databases/appdb'), { database: { owner_name: 'neondb_owner' } });
    settle();
    const deleted = sim.request('DELETE', on('/roles/app'));
    expect(deleted.status).toBe(200);
    expect(deleted.body.role.name).toBe('app');
    expect(actions(deleted.body.operations)).toEqual(['apply_config:running']);
    expect(names(sim.request('GET', on('/roles')).body.roles)).toEqual(['neondb_owner']);
  });

  it('answers 204 for a role that is not there, 404 when the branch or project is not', () => {
    const { sim, on, path } = givenBranch();
    expect(sim.request('DELETE', on('/roles/ghost')).status).toBe(204);
    expect(sim.request('GET', on('/roles/ghost')).status).toBe(404);
    expect(sim.request('GET', on('/roles/ghost/reveal_password')).status).toBe(404);
    expect(sim.request('POST', on('/roles/ghost/reset_password')).status).toBe(404);
    expect(sim.request('DELETE', on('/roles/neondb_owner', 'br-none')).status).toBe(404);
    expect(sim.request('GET', path('/branches/br-none/roles')).status).toBe(404);
    expect(sim.request('GET', '/projects/no-such-project/branches/br-x/roles').status).toBe(404);
  });
});

describe('databases', () => {
  it('creates, renames, re-owns and deletes a database', () => {
    const { sim, on, createRole, createDatabase, settle } = givenBranch();
    createRole('app');
    settle();
    const created = createDatabase('appdb', 'neondb_owner');
    expect(created.status).toBe(201);
    expect(created.body.database).toMatchObject({ name: 'appdb', owner_name: 'neondb_owner' });
    expect(created.body.database.id).toEqual(expect.any(Number));
    expect(actions(created.body.operations)).toEqual(['apply_config:running']);
    settle();
    const updated = sim.request('PATCH', on('/databases/appdb'), {
      database: { name: 'shop', owner_name: 'app' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.database).toMatchObject({
      id: created.body.database.id,
      name: 'shop',
      owner_name: 'app',
    });
    settle();
    expect(sim.request('GET', on('/databases/appdb')).status).toBe(404);
    expect(sim.request('GET', on('/databases/shop')).body.database.owner_name).toBe('app');
    const deleted = sim.request('DELETE', on('/databases/shop'));
    expect(deleted.status).toBe(200);
    expect(deleted.body.database.name).toBe('shop');
    settle();
    expect(sim.request('DELETE', on('/databases/shop')).status).toBe(204);
    expect(names(sim.request('GET', on('/databases')).body.databases)).toEqual(['neondb']);
  });

  it('changes nothing and records nothing for an update to the same values', () => {
    const { sim, on } = givenBranch();
    const logged = sim.log.length;
    const same = sim.request('PATCH', on('/databases/neondb'), {
      database: { name: 'neondb', owner_name: 'neondb_owner' },
    });
    expect(same.status).toBe(200);
    expect(same.body.operations).toEqual([]);
    expect(sim.log.length).toBe(logged);
  });

  it.each([
    ['an owner that is not a role of the branch', 'appdb', 'nobody', 400],
    ['a name over 63 bytes', 'd'.repeat(64), 'neondb_owner', 400],
    ['a reserved name', 'template1', 'neondb_owner', 400],
    ['a taken name', 'neondb', 'neondb_owner', 409],
    ['no owner', 'appdb', undefined, 400],
    ['no name', undefined, 'neondb_owner', 400],
  ])('refuses %s without changing anything', (_, name, owner, status) => {
    const { sim, createDatabase } = givenBranch();
    const logged = sim.log.length;
    const refused = createDatabase(name, owner);
    expect(refused.status).toBe(status);
    expect(sim.log.length).toBe(logged);
  });

  it('refuses an update to a taken name, an unknown owner or a body without database', () => {
    const { sim, on, createDatabase, settle } = givenBranch();
    createDatabase('other', 'neondb_owner');
    settle();
    const patch = (body: unknown) => sim.request('PATCH', on('/databases/other'), body).status;
    expect(patch({ database: { name: 'neondb' } })).toBe(409);
    expect(patch({ database: { owner_name: 'nobody' } })).toBe(400);
    expect(patch({})).toBe(400);
    expect(patch({ database: { name: 7 } })).toBe(400);
  });
});

describe('a child branch', () => {
  it("starts with its parent's roles and databases as of its creation, then goes its own way", () => {
    const { sim, on, path, createRole, createDatabase, settle } = givenBranch();
    const password = createRole('app').body.role.password as string;
    settle();
    createDatabase('appdb', 'app');
    settle();
    const child = sim.request('POST', path('/branches'), {
      branch: { name: 'child' },
      endpoints: [{ type: 'read_write' }],
    });
    const childId = child.body.branch.id as string;
    expect(names(child.body.roles)).toEqual(['neondb_owner', 'app']);
    expect(child.body.databases).toMatchObject([
      { name: 'neondb', owner_name: 'neondb_owner', branch_id: childId },
      { name: 'appdb', owner_name: 'app', branch_id: childId },
    ]);
    // Several roles and databases: no connection URI, as the schema describes.
    expect(child.body.connection_uris).toEqual([]);
    settle();
    expect(sim.request('GET', on('/roles/app/reveal_password', childId)).body.password).toBe(
      password,
    );
    createRole('later');
    settle();
    expect(names(sim.request('GET', on('/roles', childId)).body.roles)).toEqual([
      'neondb_owner',
      'app',
    ]);
    expect(createRole('later', childId).status).toBe(201);
  });

  it('has a connection URI per compute when its parent has one role and one database', () => {
    const { sim, path } = givenBranch();
    const child = sim.request('POST', path('/branches'), { endpoints: [{ type: 'read_write' }] });
    const host = child.body.endpoints[0].host as string;
    expect(child.body.connection_uris).toHaveLength(1);
    expect(child.body.connection_uris[0].connection_uri).toContain(`@${host}/neondb?`);
  });
});

describe('GET /projects/{id}/connection_uri', () => {
  it('builds the URI of a role and database on the default branch, pooled on request', () => {
    const { sim, path, endpoint } = givenBranch();
    const password =
      sim.state.projects[endpoint().projectId]!.branches[endpoint().branchId]!.roles[0]!.password;
    const query = 'role_name=neondb_owner&database_name=neondb';
    const direct = sim.request('GET', path(`/connection_uri?${query}`));
    expect(direct).toEqual({
      status: 200,
      body: {
        uri: `postgresql://neondb_owner:${password}@${endpoint().host}/neondb?sslmode=require`,
      },
    });
    const pooled = sim.request('GET', path(`/connection_uri?${query}&pooled=true`));
    const [first, ...rest] = endpoint().host.split('.');
    expect(pooled.body.uri).toContain(`@${[`${first}-pooler`, ...rest].join('.')}/neondb?`);
  });

  it('uses the named branch and compute, and refuses what does not fit', () => {
    const { sim, path, endpointId, settle } = givenBranch();
    const child = sim.request('POST', path('/branches'), { endpoints: [{ type: 'read_write' }] });
    settle();
    const childId = child.body.branch.id as string;
    const childHost = child.body.endpoints[0].host as string;
    const uri = (query: string) => sim.request('GET', path(`/connection_uri?${query}`));
    const base = 'role_name=neondb_owner&database_name=neondb';
    expect(uri(`${base}&branch_id=${childId}`).body.uri).toContain(`@${childHost}/`);
    expect(uri(`${base}&endpoint_id=${child.body.endpoints[0].id}`).body.uri).toContain(
      `@${childHost}/`,
    );
    expect(uri(`${base}&branch_id=${childId}&endpoint_id=${endpointId}`).status).toBe(400);
    expect(uri('role_name=neondb_owner').status).toBe(400);
    expect(uri('database_name=neondb').status).toBe(400);
    expect(uri(`${base}&pooled=yes`).status).toBe(400);
    expect(uri('role_name=ghost&database_name=neondb').status).toBe(404);
    expect(uri('role_name=neondb_owner&database_name=ghost').status).toBe(404);
    expect(uri(`${base}&branch_id=br-none`).status).toBe(404);
    expect(uri(`${base}&endpoint_id=ep-none`).status).toBe(404);
    const bare = sim.request('POST', path('/branches'), {}).body.branch.id as string;
    expect(uri(`${base}&branch_id=${bare}`).status).toBe(404);
  });
});

describe('API key scopes', () => {
  it("a project-scoped key reaches its project's roles and databases only", () => {
    const sim = new Simulation();
    const a = sim.request('POST', '/projects', { project: {} }).body;
    const b = sim.request('POST', '/projects', { project: {} }).body;
    const key = sim.addApiKey({ kind: 'project', projectId: a.project.id });
    const get = (created: typeof a, suffix: string) =>
      sim.request(
        'GET',
        `/projects/${created.project.id}/branches/${created.branch.id}${suffix}`,
        undefined,
        { apiKey: key },
      ).status;
    expect(get(a, '/roles')).toBe(200);
    expect(get(a, '/databases')).toBe(200);
    expect(get(b, '/roles')).toBe(404);
    expect(get(b, '/roles/neondb_owner/reveal_password')).toBe(404);
    expect(get(b, '/databases')).toBe(404);
  });
});

describe('a new project with named role and database', () => {
  it('uses the database name from the request and {database}_owner unless the role is named', () => {
    const sim = new Simulation({ seed: 3 });
    const create = (branch: object) => sim.request('POST', '/projects', { project: { branch } });
    const named = create({ database_name: 'shop' });
    expect(named.body.databases).toMatchObject([{ name: 'shop', owner_name: 'shop_owner' }]);
    expect(named.body.roles).toMatchObject([{ name: 'shop_owner' }]);
    expect(named.body.connection_uris[0].connection_uri).toMatch(
      /^postgresql:\/\/shop_owner:.*\/shop\?/,
    );
    const both = create({ database_name: 'shop', role_name: 'alice' });
    expect(both.body.databases).toMatchObject([{ name: 'shop', owner_name: 'alice' }]);
  });

  it.each([
    ['a reserved database', { database_name: 'postgres' }],
    ['a pg_ role', { role_name: 'pg_admin' }],
    ['a role name that is not a string', { role_name: 5 }],
    ['an owner name past 63 bytes', { database_name: 'd'.repeat(60) }],
  ])('refuses %s with 400 and creates nothing', (_, branch) => {
    const sim = new Simulation({ seed: 3 });
    const refused = sim.request('POST', '/projects', { project: { branch } });
    expect(refused.status).toBe(400);
    expect(sim.state.projects).toEqual({});
  });
});

describe('logs written before branches had roles', () => {
  it('replay with branches that have no roles or databases, and accept new ones', () => {
    const { sim } = givenBranch();
    const lines = sim
      .toJSONL()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const old = lines.map((event) => {
      if (event['type'] !== 'BranchCreated') return event;
      const { roles: _roles, databases: _databases, ...rest } = event;
      return rest;
    });
    expect(old.filter((e) => e['type'] === 'BranchCreated')).toHaveLength(1);
    expect(JSON.stringify(old)).not.toContain('neondb_owner');
    const replayed = Simulation.fromJSONL(
      `${old.map((e) => JSON.stringify(e)).join('\n')}\n`,
    ).simulation;
    const [project] = Object.values(replayed.state.projects);
    const branch = project!.branches[project!.defaultBranchId]!;
    expect(branch.roles).toEqual([]);
    expect(branch.databases).toEqual([]);
    const path = `/projects/${project!.id}/branches/${branch.id}/roles`;
    expect(replayed.request('POST', path, { role: { name: 'app' } }).status).toBe(201);
  });
});
