import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { immerFold } from '../support/immerFold.js';
import { scriptArb, simulate, type Step } from '../support/scripts.js';

function expectDeepFrozen(value: unknown, path = 'state'): void {
  if (typeof value !== 'object' || value === null) return;
  expect(Object.isFrozen(value), `${path} is frozen`).toBe(true);
  for (const [key, child] of Object.entries(value)) expectDeepFrozen(child, `${path}.${key}`);
}

describe('published snapshots', () => {
  it('equal an immer fold of the log, whatever the snapshot spacing (the writer records every changed path)', () => {
    fc.assert(
      fc.property(scriptArb(30), fc.integer({ min: 1, max: 200 }), (script, every) => {
        const sim = simulate(script, { snapshotEvery: every });
        expect(sim.state).toStrictEqual(immerFold(sim.log));
      }),
      { numRuns: 80 },
    );
  });

  it('equal an immer fold of the log when ended operations are pruned within the run', () => {
    // Pruning changes what a project shows (its archived operations) without changing any field
    // of it: the writer must still have it published anew.
    fc.assert(
      fc.property(scriptArb(30), fc.integer({ min: 1, max: 20 }), (script, every) => {
        const profile = { operationRetentionMs: 3_600_000 };
        const sim = simulate([...script, { kind: 'advance', ms: 2 * 86_400_000 }], {
          snapshotEvery: every,
          profile,
        });
        expect(sim.state).toStrictEqual(immerFold(sim.log));
      }),
      { numRuns: 60 },
    );
  });

  it('equal an immer fold of the log when publishes walk the whole state (trackedEvents)', () => {
    fc.assert(
      fc.property(
        scriptArb(30),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 0, max: 20 }),
        (script, every, trackedEvents) => {
          const sim = simulate(script, { snapshotEvery: every, trackedEvents });
          expect(sim.state).toStrictEqual(immerFold(sim.log));
          expectDeepFrozen(sim.state);
          expect(JSON.stringify(sim.state)).toBe(JSON.stringify(immerFold(sim.log)));
        },
      ),
      { numRuns: 80 },
    );
  });

  it('equal an immer fold after a project is deleted and recovered between two publishes', () => {
    // The recovery replaces the project whole (`touch('projects', id)`); a later event of the same
    // publish touching one of its branches must not narrow that to the branch, or the snapshot keeps
    // the project's computes and operations from before the deletion.
    const script: Step[] = [
      { kind: 'createProject' },
      { kind: 'deleteProject', projectIndex: 0 },
      { kind: 'recoverProject', projectIndex: 0 },
    ];
    for (const trackedEvents of [3, 1000]) {
      const sim = simulate(script, { snapshotEvery: 2, trackedEvents });
      expect(sim.state).toStrictEqual(immerFold(sim.log));
      expectDeepFrozen(sim.state);
    }
  });

  it('are deeply frozen and never change once published', () => {
    fc.assert(
      fc.property(scriptArb(20), scriptArb(20), (before, after) => {
        const sim = simulate(before);
        const early = sim.state;
        const earlyJson = JSON.stringify(early);
        expectDeepFrozen(early);
        for (const step of after) if (step.kind === 'advance') sim.advance(step.ms);
        sim.request('POST', '/projects', { project: {} });
        sim.runUntilIdle();
        expect(JSON.stringify(early)).toBe(earlyJson);
        expectDeepFrozen(sim.state);
      }),
      { numRuns: 40 },
    );
  });

  it('share unchanged projects with the previous snapshot', () => {
    const sim = simulate([{ kind: 'createProject' }, { kind: 'runUntilIdle' }]);
    const before = sim.state;
    sim.request('POST', '/projects', { project: {} });
    const [first] = Object.keys(before.projects);
    expect(sim.state.projects[first as string]).toBe(before.projects[first as string]);
    expect(sim.state.projects).not.toBe(before.projects);
  });

  it('share unchanged projects when a publish walks the whole state', () => {
    const sim = simulate([{ kind: 'createProject' }, { kind: 'runUntilIdle' }], {
      trackedEvents: 0,
    });
    const before = sim.state;
    sim.request('POST', '/projects', { project: {} });
    const [first] = Object.keys(before.projects);
    expect(sim.state.projects[first as string]).toBe(before.projects[first as string]);
    expect(sim.state.projects).not.toBe(before.projects);
    expect(sim.state.workloads).toBe(before.workloads);
  });

  it.each([
    ['declared paths', undefined],
    ['a walk of the whole state', 0],
  ])('share what did not change inside a changed project, publishing by %s', (_, tracked) => {
    const sim = simulate([{ kind: 'createProject' }, { kind: 'runUntilIdle' }], {
      ...(tracked === undefined ? {} : { trackedEvents: tracked }),
    });
    const before = sim.state;
    const [id] = Object.keys(before.projects) as [string];
    const endpointId = Object.keys(before.projects[id]!.endpoints)[0] as string;
    sim.request('POST', `/projects/${id}/endpoints/${endpointId}/restart`);
    const after = sim.state.projects[id]!;
    expect(after).not.toBe(before.projects[id]);
    expect(after.branches).toBe(before.projects[id]!.branches);
    expect(Object.keys(after.operations).length).toBeGreaterThan(
      Object.keys(before.projects[id]!.operations).length,
    );
    expect(sim.state).toStrictEqual(immerFold(sim.log));
  });
});
