/**
 * POST /projects/{project_id}/branches/{branch_id}/restore: from the parent (what `neonctl branches
 * reset` sends), another branch, or the branch's own history, at an LSN or a timestamp within the
 * history retention; `preserve_under_name` keeps the previous state; running computes restart.
 */
import { describe, expect, it } from 'vitest';
import { formatInstant } from '../../src/core/instant.js';
import { formatBodyInstant } from '../../src/api/bodyInstant.js';
import { formatLsn, lsnAt, parseLsn } from '../../src/domain/lsn.js';
import { givenProject } from '../support/given.js';

/** A project whose default branch has a child `dev` with an active compute, an hour later. */
function givenChild() {
  const given = givenProject();
  const created = given.sim.request('POST', given.path('/branches'), {
    branch: { name: 'dev' },
    endpoints: [{ type: 'read_write' }],
  });
  given.settle();
  given.sim.advance(3_600_000);
  given.settle();
  const devId: string = created.body.branch.id;
  const devEndpointId: string = created.body.endpoints[0].id;
  const branch = (id: string) => given.project().branches[id]!;
  return { ...given, devId, devEndpointId, branch };
}

const actions = (operations: { action: string; status: string }[]) =>
  operations.map((o) => `${o.action}:${o.status}`);

describe('restore from the parent (reset)', () => {
  it("starts the branch again at the parent's head and restarts its running compute (57P01)", () => {
    const { sim, path, devId, devEndpointId, branchId, branch, endpoint, settle } = givenChild();
    const connection = sim.connect(devEndpointId); // wakes the compute, scaled to zero meanwhile
    settle();
    expect(endpoint(devEndpointId).currentState).toBe('active');
    expect(connection.state).toBe('open');
    const now = sim.now();
    const response = sim.request('POST', path(`/branches/${devId}/restore`), {
      source_branch_id: branchId,
    });
    expect(response.status).toBe(200);
    expect(response.body.branch).toMatchObject({
      id: devId,
      name: 'dev',
      parent_id: branchId,
      parent_lsn: formatLsn(lsnAt(branch(branchId), now)),
      parent_timestamp: formatBodyInstant(now),
      last_reset_at: formatBodyInstant(now),
    });
    expect(actions(response.body.operations)).toEqual([
      'suspend_compute:running',
      'create_timeline:scheduling',
      'start_compute:scheduling',
    ]);
    expect(connection.state).toBe('dropped');
    expect(connection.error?.sqlstate).toBe('57P01');
    settle();
    expect(endpoint(devEndpointId).currentState).toBe('active');
    expect(branch(devId).timelineStartLsn).toBe(lsnAt(branch(branchId), now));
  });

  it('records only the new timeline when the compute is suspended, and leaves it suspended', () => {
    const { sim, path, devId, devEndpointId, branchId, endpoint, settle } = givenChild();
    sim.request('POST', path(`/endpoints/${devEndpointId}/suspend`));
    settle();
    const response = sim.request('POST', path(`/branches/${devId}/restore`), {
      source_branch_id: branchId,
    });
    expect(actions(response.body.operations)).toEqual(['create_timeline:running']);
    settle();
    expect(endpoint(devEndpointId).currentState).toBe('idle');
  });

  it('is refused with 423 while the branch has an unfinished operation', () => {
    const { sim, path, devId, devEndpointId, branchId } = givenChild();
    sim.request('POST', path(`/endpoints/${devEndpointId}/restart`));
    const before = sim.state.projects;
    const response = sim.request('POST', path(`/branches/${devId}/restore`), {
      source_branch_id: branchId,
    });
    expect(response.status).toBe(423);
    expect(sim.state.projects).toBe(before);
    expect(sim.log.get(sim.log.length - 1)?.type).toBe('RequestLocked');
  });
});

describe('restore to a point in time', () => {
  it("takes a timestamp within the retention on the source's timeline, and the LSN it had then", () => {
    const { sim, path, devId, branchId, branch } = givenChild();
    const at = sim.now() - 1_800_000;
    const response = sim.request('POST', path(`/branches/${devId}/restore`), {
      source_branch_id: branchId,
      source_timestamp: formatInstant(at),
    });
    expect(response.status).toBe(200);
    expect(response.body.branch.parent_timestamp).toBe(formatBodyInstant(at));
    expect(response.body.branch.parent_lsn).toBe(formatLsn(lsnAt(branch(branchId), at)));
  });

  it('takes an LSN and reports the instant the source was there', () => {
    const { sim, path, devId, branchId, branch } = givenChild();
    const at = sim.now() - 600_000;
    const lsn = formatLsn(lsnAt(branch(branchId), at));
    const response = sim.request('POST', path(`/branches/${devId}/restore`), {
      source_branch_id: branchId,
      source_lsn: lsn,
    });
    expect(response.status).toBe(200);
    expect(response.body.branch.parent_lsn).toBe(lsn);
    expect(response.body.branch.parent_timestamp).toBe(formatBodyInstant(at));
  });

  it('refuses points outside the history retention, in the future, or before the timeline began', () => {
    const { sim, path, devId, branchId, branch, settle } = givenChild();
    sim.request('PATCH', path(), { project: { history_retention_seconds: 600 } });
    settle();
    const before = sim.state.projects;
    const restore = (point: object) =>
      sim.request('POST', path(`/branches/${devId}/restore`), {
        source_branch_id: branchId,
        ...point,
      });
    const tooOld = restore({ source_timestamp: formatInstant(sim.now() - 601_000) });
    expect(tooOld.status).toBe(400);
    expect(tooOld.body.message).toMatch(/outside the history of branch .* that can be restored/);
    expect(restore({ source_timestamp: formatInstant(sim.now() + 1_000) }).status).toBe(400);
    const head = lsnAt(branch(branchId), sim.now());
    expect(restore({ source_lsn: formatLsn(head + 16) }).status).toBe(400);
    expect(
      restore({ source_lsn: formatLsn(lsnAt(branch(branchId), sim.now() - 700_000)) }).status,
    ).toBe(400);
    expect(restore({ source_timestamp: '2020-01-01T00:00:00Z' }).status).toBe(400);
    expect(sim.state.projects).toBe(before);
    // Inside the window it goes through.
    expect(restore({ source_timestamp: formatInstant(sim.now() - 599_000) }).status).toBe(200);
  });

  it('refuses malformed bodies: no source, a bad LSN or timestamp, both a timestamp and an LSN', () => {
    const { sim, path, devId, branchId, branch } = givenChild();
    const before = sim.state;
    const restore = (body: unknown) =>
      sim.request('POST', path(`/branches/${devId}/restore`), body);
    expect(restore({}).status).toBe(400);
    expect(restore({ source_branch_id: branchId, source_lsn: 'zzz' }).status).toBe(400);
    expect(restore({ source_branch_id: branchId, source_timestamp: 'yesterday' }).status).toBe(400);
    expect(
      restore({
        source_branch_id: branchId,
        source_lsn: formatLsn(lsnAt(branch(branchId), sim.now())),
        source_timestamp: formatInstant(sim.now()),
      }).status,
    ).toBe(400);
    expect(restore({ source_branch_id: 'br-none-none-000000' }).status).toBe(404);
    expect(
      sim.request('POST', path('/branches/br-none-none-000000/restore'), {
        source_branch_id: branchId,
      }).status,
    ).toBe(404);
    expect(sim.state).toBe(before);
  });
});

describe('preserve_under_name', () => {
  it("keeps the previous state as a new branch: old lineage, old timeline, and the branch's children", () => {
    const { sim, path, devId, branchId, branch, settle } = givenChild();
    const grandchild = sim.request('POST', path('/branches'), {
      branch: { name: 'gc', parent_id: devId },
    });
    settle();
    const old = branch(devId);
    const refused = sim.request('POST', path(`/branches/${devId}/restore`), {
      source_branch_id: branchId,
    });
    expect(refused.status, 'a branch with children needs preserve_under_name').toBe(400);
    const response = sim.request('POST', path(`/branches/${devId}/restore`), {
      source_branch_id: branchId,
      preserve_under_name: 'dev_before_reset',
    });
    expect(response.status).toBe(200);
    const kept = Object.values(sim.state.projects[old.projectId]!.branches).find(
      (b) => b.name === 'dev_before_reset',
    )!;
    expect(kept).toMatchObject({
      parentId: old.parentId,
      parentLsn: old.parentLsn,
      timelineStartLsn: old.timelineStartLsn,
      timelineStartedAt: old.timelineStartedAt,
      isDefault: false,
    });
    expect(branch(grandchild.body.branch.id).parentId).toBe(kept.id);
    // The kept branch is the restored one's parent: "reset from parent" undoes the restore.
    expect(response.body.branch.parent_id).toBe(kept.id);
    expect(sim.request('DELETE', path(`/branches/${kept.id}`)).status).toBe(400);
    expect(branch(devId).name).toBe('dev');
    expect(
      sim.request('POST', path(`/branches/${devId}/restore`), {
        source_branch_id: branchId,
        preserve_under_name: 'dev_before_reset',
      }).status,
      'the preserved name is taken now',
    ).toBe(409);
  });

  it("restores from the branch's own history only with a point and a preserved name", () => {
    const { sim, path, branchId, branch, project, settle } = givenChild();
    const restore = (body: object) =>
      sim.request('POST', path(`/branches/${branchId}/restore`), {
        source_branch_id: branchId,
        ...body,
      });
    const at = formatInstant(sim.now() - 60_000);
    expect(restore({ preserve_under_name: 'x' }).status).toBe(400);
    expect(restore({ source_timestamp: at }).status).toBe(400);
    const lsnBefore = lsnAt(branch(branchId), sim.now() - 60_000);
    const response = restore({ source_timestamp: at, preserve_under_name: 'main_old' });
    expect(response.status).toBe(200);
    // The default branch stays the default; the kept state becomes its parent (it was a root).
    const kept = Object.values(project().branches).find((b) => b.name === 'main_old')!;
    expect(kept.parentId).toBeUndefined();
    expect(response.body.branch).toMatchObject({
      id: branchId,
      default: true,
      parent_id: kept.id,
      parent_lsn: formatLsn(lsnBefore),
    });
    expect(branch(branchId).timelineStartLsn).toBe(lsnBefore);
    expect(parseLsn(formatLsn(lsnBefore))).toBe(lsnBefore);
    settle();
    const names = Object.values(project().branches)
      .map((b) => b.name)
      .sort();
    expect(names).toEqual(['dev', 'main', 'main_old']);
  });
});
