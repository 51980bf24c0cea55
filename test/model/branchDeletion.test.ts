/**
 * Deleting as the real service does (fidelity.md, audit 2026-11-23): a branch's running computes are
 * suspended (`suspend_compute`) before its timeline is deleted (`delete_timeline`).
 */
import { describe, expect, it } from 'vitest';
import { givenProject } from '../support/given.js';

describe('deleting a branch', () => {
  it('records a suspend_compute for its running compute before the delete_timeline', () => {
    // given a branch whose compute is running
    const given = givenProject();
    const { sim, path } = given;
    const created = sim.request('POST', path('/branches'), {
      branch: { name: 'feature' },
      endpoints: [{ type: 'read_write' }],
    }).body;
    given.settle();
    const computeId = created.endpoints[0].id as string;
    expect(given.endpoint(computeId).currentState).toBe('active');
    // when the branch is deleted
    const deleted = sim.request('DELETE', path(`/branches/${created.branch.id}`));
    // then its answer lists the compute's suspend, then the timeline's deletion
    expect(deleted.status).toBe(200);
    expect(
      deleted.body.operations.map((o: { action: string; endpoint_id?: string }) => [
        o.action,
        o.endpoint_id,
      ]),
    ).toEqual([
      ['suspend_compute', computeId],
      ['delete_timeline', undefined],
    ]);
    // and both end
    given.settle();
    const ended = deleted.body.operations.map(
      (o: { id: string }) => given.project().operations[o.id]?.status,
    );
    expect(ended).toEqual(['finished', 'finished']);
  });

  it('records no suspend for a compute that is already suspended', () => {
    // given a branch whose compute has scaled to zero
    const given = givenProject();
    const { sim, path } = given;
    const created = sim.request('POST', path('/branches'), {
      branch: { name: 'idle' },
      endpoints: [{ type: 'read_write' }],
    }).body;
    given.settle();
    sim.advance('10m');
    given.settle();
    expect(given.endpoint(created.endpoints[0].id).currentState).toBe('idle');
    // when the branch is deleted, then only its timeline's deletion is recorded
    const deleted = sim.request('DELETE', path(`/branches/${created.branch.id}`));
    expect(deleted.body.operations.map((o: { action: string }) => o.action)).toEqual([
      'delete_timeline',
    ]);
  });
});
