/**
 * Projections of a log where a deletion is not final: a recovered compute's lane, lifecycle and
 * narration go on after its project (or branch) comes back, idle.
 */
import { describe, expect, it } from 'vitest';
import { lifecycleOf } from '../../src/entries/studies.js';
import { ComputeActivity } from '../../src/projection/computeActivity.js';
import { computeLanes } from '../../src/projection/computeLanes.js';
import { createNarrator } from '../../src/projection/narrator.js';
import { givenProject } from '../support/given.js';

describe('a recovered project in the projections', () => {
  it('takes its compute’s lane and lifecycle up again, and narrates the recovery', () => {
    // given a project whose compute ran, then was deleted and, minutes later, recovered and used
    const given = givenProject();
    const { sim, projectId, endpointId } = given;
    const from = sim.now();
    sim.advance('2m');
    sim.request('DELETE', `/projects/${projectId}`);
    sim.advance('3m');
    expect(sim.request('POST', `/projects/${projectId}/recover`).status).toBe(200);
    sim.advance('2m');
    const connection = sim.connect(endpointId);
    sim.runUntil(() => connection.state === 'open', { stepLimit: 100_000 });
    sim.advance('2m');
    // then its lifecycle is deleted, gone, idle again, then started
    const life = lifecycleOf(sim.log, endpointId, { from, slots: 9 });
    expect(life).toMatch(/^[S=]=d\.\.--+S/);
    // and its activity is not ended, with a second start counted
    const activity = new ComputeActivity();
    for (const event of sim.log) activity.apply(event);
    expect(activity.get(endpointId)).toMatchObject({ ended: false, starts: 2, active: true });
    // and its lane goes on after the gap: idle from the recovery, then active
    const lane = computeLanes(sim.log).find((l) => l.endpointId === endpointId)!;
    const recoveredAt = [...sim.log].find((e) => e.type === 'ProjectRecovered')!.at;
    const after = lane.spans.filter((span) => span.from >= recoveredAt).map((span) => span.state);
    expect(after.slice(0, 1)).toEqual(['idle']);
    expect(after).toContain('active');
    // and the narrator tells the deletion's window and the recovery
    const narrate = createNarrator();
    const lines = [...sim.log].map(narrate).filter((l) => l !== undefined);
    expect(lines).toContain(`project ${projectId} deleted (recoverable for 7d)`);
    expect(lines).toContain(`project ${projectId} recovered, its computes idle`);
  });
});
