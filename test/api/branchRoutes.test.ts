/**
 * The branch routes real clients call beyond create/list/get/delete: PATCH (rename, protect),
 * set_as_default, count, a branch's computes. (Restore and reset: branchRestore.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { givenProject } from '../support/given.js';

/** A project with a second branch `dev` (with a compute when asked), everything settled. */
function givenBranch(withCompute = false) {
  const given = givenProject();
  const created = given.sim.request('POST', given.path('/branches'), {
    branch: { name: 'dev' },
    endpoints: withCompute ? [{ type: 'read_write' }] : [],
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  given.settle();
  return { ...given, devId: created.body.branch.id as string };
}

describe('PATCH /projects/{project_id}/branches/{branch_id}', () => {
  it('renames a branch, recording no operation', () => {
    const { sim, path, devId } = givenBranch();
    const response = sim.request('PATCH', path(`/branches/${devId}`), {
      branch: { name: 'feature' },
    });
    expect(response.status).toBe(200);
    expect(response.body.branch).toMatchObject({ id: devId, name: 'feature' });
    expect(response.body.operations).toEqual([]);
    expect(sim.request('GET', path(`/branches/${devId}`)).body.branch.name).toBe('feature');
  });

  it('refuses a name another branch of the project has (409), and bodies without branch (400)', () => {
    const { sim, path, devId } = givenBranch();
    const before = sim.state;
    expect(
      sim.request('PATCH', path(`/branches/${devId}`), { branch: { name: 'main' } }).status,
    ).toBe(409);
    expect(sim.request('PATCH', path(`/branches/${devId}`), { name: 'x' }).status).toBe(400);
    expect(sim.request('PATCH', path(`/branches/${devId}`), { branch: { name: '' } }).status).toBe(
      400,
    );
    expect(
      sim.request('PATCH', path(`/branches/${devId}`), { branch: { protected: 'yes' } }).status,
    ).toBe(400);
    expect(sim.request('PATCH', path('/branches/br-none-none-000000'), { branch: {} }).status).toBe(
      404,
    );
    expect(sim.state).toBe(before);
    // Its own name again is no conflict.
    expect(
      sim.request('PATCH', path(`/branches/${devId}`), { branch: { name: 'dev' } }).status,
    ).toBe(200);
  });

  it('protects a branch: a protected branch cannot be deleted until it is unprotected', () => {
    const { sim, path, devId } = givenBranch();
    const protect = sim.request('PATCH', path(`/branches/${devId}`), {
      branch: { protected: true },
    });
    expect(protect.body.branch.protected).toBe(true);
    const refused = sim.request('DELETE', path(`/branches/${devId}`));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('protected');
    sim.request('PATCH', path(`/branches/${devId}`), { branch: { protected: false } });
    expect(sim.request('DELETE', path(`/branches/${devId}`)).status).toBe(200);
  });
});

describe('POST /projects/{project_id}/branches/{branch_id}/set_as_default', () => {
  it('makes the branch the one default: the old default stops being one, the new one cannot be deleted', () => {
    const { sim, path, devId, branchId, project } = givenBranch();
    const response = sim.request('POST', path(`/branches/${devId}/set_as_default`));
    expect(response.status).toBe(200);
    expect(response.body.branch).toMatchObject({ id: devId, default: true });
    expect(response.body.operations).toEqual([]);
    const listed = sim.request('GET', path('/branches')).body.branches as {
      id: string;
      default: boolean;
    }[];
    expect(listed.filter((b) => b.default).map((b) => b.id)).toEqual([devId]);
    expect(project().defaultBranchId).toBe(devId);
    expect(sim.request('DELETE', path(`/branches/${devId}`)).status).toBe(400);
    // New branches now come from the new default.
    expect(sim.request('POST', path('/branches'), {}).body.branch.parent_id).toBe(devId);
    // Setting the old one back (once the new branch's operations let go of the project's lock):
    // still exactly one default.
    sim.runUntilIdle();
    expect(sim.request('POST', path(`/branches/${branchId}/set_as_default`)).status).toBe(200);
    expect(
      Object.values(project().branches)
        .filter((b) => b.isDefault)
        .map((b) => b.id),
    ).toEqual([branchId]);
  });

  it('is a no-op on the default branch, 404 on an unknown one, 423 on a branch still being created', () => {
    const { sim, path, branchId } = givenProject();
    const same = sim.request('POST', path(`/branches/${branchId}/set_as_default`));
    expect(same.status).toBe(200);
    expect(same.body.branch.default).toBe(true);
    expect(sim.request('POST', path('/branches/br-none-none-000000/set_as_default')).status).toBe(
      404,
    );
    const created = sim.request('POST', path('/branches'), { branch: { name: 'young' } });
    const locked = sim.request('POST', path(`/branches/${created.body.branch.id}/set_as_default`));
    expect(locked.status).toBe(423);
    expect(sim.state.projects[created.body.branch.project_id]!.defaultBranchId).toBe(branchId);
  });
});

describe('GET /projects/{project_id}/branches/count', () => {
  it('counts the branches, or those whose name contains the search', () => {
    const { sim, path } = givenBranch();
    expect(sim.request('GET', path('/branches/count')).body).toEqual({ count: 2 });
    expect(sim.request('GET', path('/branches/count?search=DE')).body).toEqual({ count: 1 });
    expect(sim.request('GET', path('/branches/count?search=zzz')).body).toEqual({ count: 0 });
    expect(sim.request('GET', '/projects/no-such-000000/branches/count').status).toBe(404);
  });
});

describe('GET /projects/{project_id}/branches/{branch_id}/endpoints', () => {
  it("lists the branch's computes only", () => {
    const { sim, path, devId, branchId, endpointId } = givenBranch(true);
    const main = sim.request('GET', path(`/branches/${branchId}/endpoints`));
    expect(main.status).toBe(200);
    expect(main.body.endpoints.map((e: { id: string }) => e.id)).toEqual([endpointId]);
    const dev = sim.request('GET', path(`/branches/${devId}/endpoints`)).body.endpoints;
    expect(dev).toHaveLength(1);
    expect(dev[0].branch_id).toBe(devId);
    expect(sim.request('GET', path('/branches/br-none-none-000000/endpoints')).status).toBe(404);
  });
});
