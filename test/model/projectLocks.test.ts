/**
 * Locks as the real service takes them (fidelity.md, audit 2026-11-23): an unfinished operation
 * refuses conflicting requests across its whole project with 423 and the service's fixed message; a
 * branch still being created answers 422 `branch not ready yet`; a project has a cap on unfinished
 * operations. Each case is given / when / then.
 */
import { describe, expect, it } from 'vitest';
import { LOCKED_MESSAGE } from '../../src/domain/rejection.js';
import { givenProject } from '../support/given.js';

/** A project with a child branch (with a compute) whose creation is still under way. */
function givenBranchBeingCreated(profile = {}) {
  const given = givenProject({ profile });
  const created = given.sim.request('POST', given.path('/branches'), {
    branch: { name: 'child' },
    endpoints: [{ type: 'read_write' }],
  });
  expect(created.status).toBe(201);
  expect(given.project().operations[created.body.operations[0].id]?.status).toBe('running');
  return { ...given, child: created.body.branch.id as string };
}

describe('locks across the project', () => {
  it('refuses a PATCH of the main compute while a child branch is being created', () => {
    // given a child branch being created
    const { sim, path, endpointId } = givenBranchBeingCreated();
    // when the main compute, which the branch creation does not touch, is changed
    const patched = sim.request('PATCH', path(`/endpoints/${endpointId}`), {
      endpoint: { suspend_timeout_seconds: 600 },
    });
    // then it is refused with the real service's 423, the operation named apart from the message
    expect(patched).toMatchObject({
      status: 423,
      body: {
        code: '',
        message: LOCKED_MESSAGE,
        request_id: expect.any(String),
        detail: expect.stringMatching(/^create_branch [0-9a-f-]+ is running$/),
      },
    });
  });

  it('refuses starts, suspends, restarts, new computes and branch deletions elsewhere in the project too', () => {
    // given a child branch being created, and an older branch that is settled
    const given = givenProject();
    const older = given.sim.request('POST', given.path('/branches'), { branch: { name: 'old' } });
    given.settle();
    const { sim, path, endpointId } = given;
    sim.request('POST', path('/branches'), { branch: { name: 'new' } });
    // when anything else in the project is asked to change, then each answer is 423
    const attempts = [
      sim.request('POST', path(`/endpoints/${endpointId}/suspend`)),
      sim.request('POST', path(`/endpoints/${endpointId}/restart`)),
      sim.request('POST', path('/endpoints'), {
        endpoint: { branch_id: older.body.branch.id, type: 'read_only' },
      }),
      sim.request('DELETE', path(`/branches/${older.body.branch.id}`)),
      sim.request('POST', path('/branches'), { branch: { name: 'another' } }),
    ];
    expect(attempts.map((a) => [a.status, a.body.message])).toEqual(
      attempts.map(() => [423, LOCKED_MESSAGE]),
    );
    // and once the creation is over, the same request goes through
    given.settle();
    expect(sim.request('POST', path(`/endpoints/${endpointId}/suspend`)).status).toBe(200);
  });

  it('narrows the lock to the operation’s own compute and branch when the profile says so', () => {
    // given a child branch being created, with locks narrowed
    const { sim, path, endpointId } = givenBranchBeingCreated({
      locks: { scope: 'compute-and-branch' },
    });
    // when the main compute is changed, then it goes through
    const patched = sim.request('PATCH', path(`/endpoints/${endpointId}`), {
      endpoint: { suspend_timeout_seconds: 600 },
    });
    expect(patched.status).toBe(200);
  });
});

describe('branch not ready yet (422)', () => {
  it('refuses a compute on a branch still being created with 422, and records no lock', () => {
    // given a child branch being created, with locks narrowed so only readiness can refuse
    const { sim, path, child } = givenBranchBeingCreated({
      locks: { scope: 'compute-and-branch' },
    });
    const logged = sim.log.length;
    // when a read replica is created on it
    const replica = sim.request('POST', path('/endpoints'), {
      endpoint: { branch_id: child, type: 'read_only' },
    });
    // then the real service's 422 answers, and nothing is recorded
    expect(replica).toMatchObject({
      status: 422,
      body: { code: '', message: 'branch not ready yet' },
    });
    expect(sim.log.length).toBe(logged);
  });

  it('answers 422 before 423 when both apply (a branch of a branch being created)', () => {
    // given a child branch being created (which also locks the project)
    const { sim, path, child } = givenBranchBeingCreated();
    // when a branch is made from it
    const grandchild = sim.request('POST', path('/branches'), { branch: { parent_id: child } });
    // then the answer is that the parent is not ready
    expect(grandchild.status).toBe(422);
  });
});

describe('cap on unfinished operations per project', () => {
  it('refuses new work with 423 once the project has as many unfinished operations as the cap', () => {
    // given narrow locks, a cap of 2, a settled second branch, and a restart of the main compute
    // under way (suspend running, start scheduled)
    const given = givenProject({
      profile: { locks: { scope: 'compute-and-branch', maxUnfinishedOperations: 2 } },
    });
    const { sim, path, endpointId } = given;
    const other = sim.request('POST', path('/branches'), { branch: { name: 'other' } }).body.branch
      .id as string;
    given.settle();
    expect(sim.request('POST', path(`/endpoints/${endpointId}/restart`)).status).toBe(200);
    // when a compute is asked for on the other branch, which the restart does not lock
    const replica = () =>
      sim.request('POST', path('/endpoints'), {
        endpoint: { branch_id: other, type: 'read_only' },
      });
    const refused = replica();
    // then the cap refuses it, with the real message and the count in the detail
    expect(refused).toMatchObject({
      status: 423,
      body: {
        message: LOCKED_MESSAGE,
        detail: expect.stringMatching(/^2 operations are unfinished/),
      },
    });
    // and once the restart is over, below the cap, it goes through
    given.settle();
    expect(replica().status).toBe(201);
  });
});
