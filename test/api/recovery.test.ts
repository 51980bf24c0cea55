/**
 * Recovering deleted projects and branches as the real service does (fidelity.md, audit
 * 2026-11-23): kept 7 days (the profile's `recoveryWindowMs`), listed with `recoverable=true` or
 * `include_deleted=true`, brought back under the same ids with their computes idle, then gone for good.
 */
import { describe, expect, it } from 'vitest';
import type { SimulationOptions } from '../../src/index.js';
import { givenProject } from '../support/given.js';

const DAY = 86_400_000;
const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

/** A settled project with a second branch `feature` holding its own running compute. */
function givenProjectWithFeatureBranch(options: SimulationOptions = {}) {
  const given = givenProject(options);
  const created = given.sim.request('POST', given.path('/branches'), {
    branch: { name: 'feature' },
    endpoints: [{ type: 'read_write' }],
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  given.settle();
  return {
    ...given,
    featureId: created.body.branch.id as string,
    featureComputeId: created.body.endpoints[0].id as string,
  };
}

describe('a deleted project', () => {
  it('is listed as recoverable, not as a project, and comes back whole under the same ids', () => {
    // given a settled project with two branches, two running computes, a role and a database
    const given = givenProjectWithFeatureBranch();
    const { sim, projectId, branchId, endpointId, featureId, featureComputeId } = given;
    const connection = sim.connect(endpointId);
    sim.runUntil(() => connection.state === 'open');
    const before = given.project();
    // when the project is deleted
    expect(sim.request('DELETE', `/projects/${projectId}`).status).toBe(200);
    // then it answers 404 and is no longer listed, but is listed as recoverable for 7 days
    expect(sim.request('GET', `/projects/${projectId}`)).toMatchObject({
      status: 404,
      body: { message: 'project not found' },
    });
    expect(ids(sim.request('GET', '/projects').body.projects)).toEqual([]);
    const recoverable = sim.request('GET', '/projects?recoverable=true').body.projects;
    expect(recoverable).toEqual([
      expect.objectContaining({
        id: projectId,
        deleted_at: expect.any(String),
        recoverable_until: expect.any(String),
      }),
    ]);
    const { deleted_at: deletedAt, recoverable_until: until } = recoverable[0];
    expect(Date.parse(until) - Date.parse(deletedAt)).toBe(7 * DAY);
    expect(connection.state).not.toBe('open');

    // when it is recovered a day later
    sim.advance('1d');
    const recovered = sim.request('POST', `/projects/${projectId}/recover`);
    // then it comes back with its branches, under the same ids
    expect(recovered.status).toBe(200);
    expect(recovered.body.project).toMatchObject({ id: projectId, name: before.name });
    expect(ids(recovered.body.branches).sort()).toEqual([branchId, featureId].sort());
    // and its computes are idle, its roles and databases as they were
    const after = given.project();
    expect(Object.keys(after.endpoints).sort()).toEqual([endpointId, featureComputeId].sort());
    for (const compute of Object.values(after.endpoints)) {
      expect(compute).toMatchObject({ currentState: 'idle', directConnections: 0 });
      expect(compute.pendingState).toBeUndefined();
    }
    expect(after.branches[branchId]?.roles).toEqual(before.branches[branchId]?.roles);
    expect(after.branches[branchId]?.databases).toEqual(before.branches[branchId]?.databases);
    expect(Object.keys(after.pendingOperations)).toEqual([]);
    // and its branches with computes are scheduled for availability checks again
    for (const id of [branchId, featureId])
      expect(after.branches[id]?.nextCheckAt).toBeGreaterThan(sim.now());
    // and it is a project again, not a recoverable one
    expect(sim.request('GET', `/projects/${projectId}`).status).toBe(200);
    expect(ids(sim.request('GET', '/projects').body.projects)).toEqual([projectId]);
    expect(sim.request('GET', '/projects?recoverable=true').body.projects).toEqual([]);
    // and its compute wakes for a client as before
    const again = sim.connect(endpointId);
    sim.runUntil(() => again.state === 'open', { stepLimit: 100_000 });
    expect(given.endpoint().currentState).toBe('active');
  });

  it('is gone for good when its window ends: recover answers 404', () => {
    // given a deleted project
    const { sim, projectId } = givenProject();
    sim.request('DELETE', `/projects/${projectId}`);
    // when a little less than 7 days pass, then it is still recoverable
    sim.advance(7 * DAY - 1000);
    expect(ids(sim.request('GET', '/projects?recoverable=true').body.projects)).toEqual([
      projectId,
    ]);
    // when the window ends
    sim.advance('1s');
    // then nothing of it is kept, and recover answers 404
    expect(sim.state.deletedProjects?.[projectId]).toBeUndefined();
    expect(sim.request('GET', '/projects?recoverable=true').body.projects).toEqual([]);
    expect(sim.request('POST', `/projects/${projectId}/recover`)).toMatchObject({
      status: 404,
      body: { message: 'project not found' },
    });
  });

  it('cannot be recovered when it is not deleted, or never existed', () => {
    const { sim, projectId } = givenProject();
    const before = sim.state;
    expect(sim.request('POST', `/projects/${projectId}/recover`)).toMatchObject({
      status: 409,
      body: { message: 'project is not deleted' },
    });
    expect(sim.request('POST', '/projects/no-such-project/recover').status).toBe(404);
    expect(sim.state).toBe(before);
  });

  it('is final at once with recoveryWindowMs 0', () => {
    const { sim, projectId } = givenProject({ profile: { recoveryWindowMs: 0 } });
    sim.request('DELETE', `/projects/${projectId}`);
    expect(sim.request('GET', '/projects?recoverable=true').body.projects).toEqual([]);
    expect(sim.request('POST', `/projects/${projectId}/recover`).status).toBe(404);
  });
});

describe('a deleted branch', () => {
  it('is listed with include_deleted and comes back with its compute, idle', () => {
    // given a branch with a running compute
    const given = givenProjectWithFeatureBranch();
    const { sim, path, featureId, featureComputeId } = given;
    // when it is deleted and its deletion's operations end
    expect(sim.request('DELETE', path(`/branches/${featureId}`)).status).toBe(200);
    given.settle();
    // then it answers 404 and is listed only with include_deleted, with its recovery window
    expect(sim.request('GET', path(`/branches/${featureId}`))).toMatchObject({
      status: 404,
      body: { message: 'branch not found' },
    });
    expect(ids(sim.request('GET', path('/branches')).body.branches)).not.toContain(featureId);
    const listed = sim.request('GET', path('/branches?include_deleted=true')).body.branches;
    expect(listed.find((b: { id: string }) => b.id === featureId)).toMatchObject({
      name: 'feature',
      recovery: { deletion_method: 'user', recoverable_until: expect.any(String) },
    });
    expect(given.project().endpoints[featureComputeId]).toBeUndefined();
    // when it is recovered
    const recovered = sim.request('POST', path(`/branches/${featureId}/recover`));
    // then it comes back under its id with its compute, idle
    expect(recovered.status).toBe(200);
    expect(recovered.body.branch).toMatchObject({ id: featureId, name: 'feature' });
    expect(ids(recovered.body.endpoints)).toEqual([featureComputeId]);
    expect(given.endpoint(featureComputeId).currentState).toBe('idle');
    expect(given.project().branches[featureId]?.nextCheckAt).toBeGreaterThan(sim.now());
    expect(sim.state.endpointOwners[featureComputeId]).toBe(given.projectId);
    expect(sim.request('GET', path(`/branches/${featureId}`)).status).toBe(200);
    expect(ids(sim.request('GET', path('/branches?include_deleted=true')).body.branches)).toEqual(
      ids(sim.request('GET', path('/branches')).body.branches),
    );
  });

  it('is gone at once with hard_delete=true, and after 7 days otherwise', () => {
    // given two branches, one deleted hard and one not
    const given = givenProjectWithFeatureBranch();
    const { sim, path, featureId } = given;
    const other = sim.request('POST', path('/branches'), { branch: { name: 'other' } }).body;
    given.settle();
    expect(sim.request('DELETE', path(`/branches/${featureId}?hard_delete=true`)).status).toBe(200);
    given.settle();
    expect(sim.request('DELETE', path(`/branches/${other.branch.id}`)).status).toBe(200);
    given.settle();
    // then the hard-deleted one cannot be recovered
    expect(sim.request('POST', path(`/branches/${featureId}/recover`))).toMatchObject({
      status: 404,
      body: { message: 'branch not found' },
    });
    // and the other one, once its window ended, neither
    sim.advance(7 * DAY);
    expect(given.project().deletedBranches?.[other.branch.id]).toBeUndefined();
    expect(sim.request('POST', path(`/branches/${other.branch.id}/recover`)).status).toBe(404);
  });

  it('refuses with 409 when its name was taken since, and when it is not deleted', () => {
    // given a deleted branch `feature` and a new branch named `feature` since
    const given = givenProjectWithFeatureBranch();
    const { sim, path, featureId, branchId } = given;
    sim.request('DELETE', path(`/branches/${featureId}`));
    given.settle();
    expect(sim.request('POST', path('/branches'), { branch: { name: 'feature' } }).status).toBe(
      201,
    );
    given.settle();
    const before = sim.state;
    // when it is recovered, then it is refused, saying why, and nothing changes
    expect(sim.request('POST', path(`/branches/${featureId}/recover`))).toMatchObject({
      status: 409,
      body: { message: expect.stringMatching(/branch name "feature" is already taken/) },
    });
    expect(sim.request('POST', path(`/branches/${branchId}/recover`))).toMatchObject({
      status: 409,
      body: { message: 'branch is not deleted' },
    });
    expect(sim.state).toBe(before);
  });

  it('comes back with its project when the project is recovered, still recoverable itself', () => {
    // given a deleted branch, then its project deleted
    const given = givenProjectWithFeatureBranch();
    const { sim, path, projectId, featureId } = given;
    sim.request('DELETE', path(`/branches/${featureId}`));
    given.settle();
    sim.request('DELETE', `/projects/${projectId}`);
    // when the project is recovered, then the branch is still deleted, and recoverable
    expect(sim.request('POST', `/projects/${projectId}/recover`).status).toBe(200);
    expect(given.project().branches[featureId]).toBeUndefined();
    expect(sim.request('POST', path(`/branches/${featureId}/recover`)).status).toBe(200);
  });
});
