/**
 * The project routes real clients call beyond create/get/delete: PATCH (name, history retention,
 * default compute settings), the listing's `search` and `org_id`, and the shared-projects listing.
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { givenProject } from '../support/given.js';

const actions = (operations: { action: string; status: string }[]) =>
  operations.map((o) => `${o.action}:${o.status}`);

describe('GET /projects/shared', () => {
  it('answers an empty listing, not "project shared not found" (a literal segment beats {project_id})', () => {
    const { sim } = givenProject();
    const response = sim.request('GET', '/projects/shared');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ projects: [] });
    expect(sim.request('GET', '/projects/shared?limit=0').status).toBe(400);
  });
});

describe('GET /projects?search=&org_id=', () => {
  it('keeps the projects whose name or id contains the search, ignoring case', () => {
    const { sim, projectId } = givenProject();
    const other = sim.request('POST', '/projects', { project: { name: 'Billing-API' } });
    const otherId: string = other.body.project.id;
    const ids = (query: string) =>
      sim.request('GET', `/projects?${query}`).body.projects.map((p: { id: string }) => p.id);
    expect(ids('search=billing')).toEqual([otherId]);
    expect(ids(`search=${projectId.slice(2, 9).toUpperCase()}`)).toEqual([projectId]);
    expect(ids('search=nothing-like-it')).toEqual([]);
    expect(ids('search=')).toEqual([projectId, otherId]);
  });

  it('checks org_id for shape: every project belongs to the one simulated account', () => {
    const { sim, projectId } = givenProject();
    const listed = sim.request('GET', '/projects?org_id=org-morning-bread-81040908');
    expect(listed.status).toBe(200);
    expect(listed.body.projects.map((p: { id: string }) => p.id)).toEqual([projectId]);
    expect(sim.request('GET', '/projects?org_id=Not%20An%20Id').status).toBe(400);
  });
});

describe('PATCH /projects/{project_id}', () => {
  it('renames a project without recording an operation', () => {
    const { sim, path } = givenProject();
    const before = sim.request('GET', path()).body.project;
    const response = sim.request('PATCH', path(), { project: { name: 'renamed' } });
    expect(response.status).toBe(200);
    expect(response.body.operations).toEqual([]);
    expect(response.body.project).toMatchObject({ id: before.id, name: 'renamed' });
    expect(sim.request('GET', path()).body.project.name).toBe('renamed');
  });

  it('records apply_storage_config on the default branch when the history retention changes', () => {
    const { sim, path, branchId, settle } = givenProject();
    const response = sim.request('PATCH', path(), { project: { history_retention_seconds: 3600 } });
    expect(response.status).toBe(200);
    expect(response.body.project.history_retention_seconds).toBe(3600);
    expect(actions(response.body.operations)).toEqual(['apply_storage_config:running']);
    expect(response.body.operations[0].branch_id).toBe(branchId);
    settle();
    // The same value again changes nothing in storage: no operation.
    const again = sim.request('PATCH', path(), { project: { history_retention_seconds: 3600 } });
    expect(again.body.operations).toEqual([]);
  });

  it('refuses a retention outside 0..2592000 s, a body without project, and an unknown project', () => {
    const { sim, path, project } = givenProject();
    const before = sim.state;
    for (const seconds of [-1, 2_592_001, 1.5, '60']) {
      const response = sim.request('PATCH', path(), {
        project: { history_retention_seconds: seconds },
      });
      expect(response.status, JSON.stringify(seconds)).toBe(400);
      expect(response.body.message).toContain('history_retention_seconds');
    }
    expect(sim.request('PATCH', path(), { name: 'x' }).status).toBe(400);
    expect(
      sim.request('PATCH', '/projects/no-such-000000', { project: { name: 'x' } }).status,
    ).toBe(404);
    expect(sim.state).toBe(before);
    expect(project().historyRetentionSeconds).toBe(
      before.projects[project().id]!.historyRetentionSeconds,
    );
  });

  it('refuses a retention change with 423 while the default branch has an unfinished operation', () => {
    const { sim, path, endpointId } = givenProject();
    sim.request('POST', path(`/endpoints/${endpointId}/restart`));
    const response = sim.request('PATCH', path(), { project: { history_retention_seconds: 60 } });
    expect(response.status).toBe(423);
    // A rename alone is metadata: it goes through.
    expect(sim.request('PATCH', path(), { project: { name: 'busy' } }).status).toBe(200);
  });

  it('keeps default_endpoint_settings and gives them to computes created from then on', () => {
    const { sim, path, branchId, settle } = givenProject();
    const response = sim.request('PATCH', path(), {
      project: {
        default_endpoint_settings: {
          autoscaling_limit_min_cu: 0.5,
          autoscaling_limit_max_cu: 2,
          suspend_timeout_seconds: 600,
        },
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.project.default_endpoint_settings).toEqual({
      autoscaling_limit_min_cu: 0.5,
      autoscaling_limit_max_cu: 2,
      suspend_timeout_seconds: 600,
    });
    settle();
    const replica = sim.request('POST', path('/endpoints'), {
      endpoint: { branch_id: branchId, type: 'read_only' },
    });
    expect(replica.body.endpoint).toMatchObject({
      autoscaling_limit_min_cu: 0.5,
      autoscaling_limit_max_cu: 2,
      suspend_timeout_seconds: 600,
    });
    settle();
    const branch = sim.request('POST', path('/branches'), { endpoints: [{ type: 'read_write' }] });
    expect(branch.body.endpoints[0].autoscaling_limit_max_cu).toBe(2);
  });

  it('keeps the default_endpoint_settings a project was created with, for its later computes', () => {
    const sim = new Simulation({ seed: 4 });
    const created = sim.request('POST', '/projects', {
      project: {
        default_endpoint_settings: { autoscaling_limit_max_cu: 1, suspend_timeout_seconds: 900 },
      },
    });
    const p: string = created.body.project.id;
    expect(created.body.project.default_endpoint_settings).toEqual({
      autoscaling_limit_max_cu: 1,
      suspend_timeout_seconds: 900,
    });
    sim.runUntilIdle();
    const branch = sim.request('POST', `/projects/${p}/branches`, {
      endpoints: [{ type: 'read_write' }],
    });
    expect(branch.body.endpoints[0]).toMatchObject({
      autoscaling_limit_min_cu: 1,
      autoscaling_limit_max_cu: 1,
      suspend_timeout_seconds: 900,
    });
    // An update changes the fields it names and keeps the others.
    const updated = sim.request('PATCH', `/projects/${p}`, {
      project: { default_endpoint_settings: { suspend_timeout_seconds: 60 } },
    });
    expect(updated.body.project.default_endpoint_settings).toEqual({
      autoscaling_limit_max_cu: 1,
      suspend_timeout_seconds: 60,
    });
  });

  it('refuses default compute settings a compute could not have', () => {
    const { sim, path } = givenProject();
    const response = sim.request('PATCH', path(), {
      project: {
        default_endpoint_settings: { autoscaling_limit_min_cu: 4, autoscaling_limit_max_cu: 1 },
      },
    });
    expect(response.status).toBe(400);
    expect(sim.request('GET', path()).body.project.default_endpoint_settings).toBeUndefined();
  });
});

describe('a project’s settings and organization, a branch’s logical size', () => {
  it('are in the created project, its record, its listing and its branches', () => {
    // given a simulation
    const sim = new Simulation({ seed: 3 });
    // when a project is created, read, listed and its branches listed
    const created = sim.request('POST', '/projects', { project: { name: 'settled' } });
    const id: string = created.body.project.id;
    const read = sim.request('GET', `/projects/${id}`).body.project;
    const listed = sim.request('GET', '/projects').body.projects[0];
    const branches = sim.request('GET', `/projects/${id}/branches`).body.branches;
    // then each project says the simulated organization and the default settings
    for (const project of [created.body.project, read, listed]) {
      expect(project).toMatchObject({
        org_id: 'org-computesim-00000001',
        settings: {
          allowed_ips: { ips: [], protected_branches_only: false },
          enable_logical_replication: false,
          block_public_connections: false,
          hipaa: false,
        },
      });
    }
    // and every branch has the same fixed logical size, in bytes
    expect(created.body.branch.logical_size).toBe(30 * 1024 * 1024);
    expect(branches.map((b: { logical_size: number }) => b.logical_size)).toEqual([31_457_280]);
    // and the listing filters by that organization
    expect(
      sim.request('GET', '/projects?org_id=org-computesim-00000001').body.projects,
    ).toHaveLength(1);
  });
});
