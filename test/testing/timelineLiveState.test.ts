/**
 * Timelines read the simulation's live working state to pick what a step acts on, instead of a
 * published snapshot each step. The two must pick the same objects: a timeline played by
 * `playTimeline` gives the log and answers of the same steps played on snapshots.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import type { ApiResponse } from '../../src/api/apiResponse.js';
import {
  playStep,
  playTimeline,
  timeline,
  withFaults,
  type StepHost,
  type TimelineStep,
} from '../../src/testing/index.js';

/** Plays `steps` the way a scenario script does: each step reads `sim.state`, a snapshot. */
function playOnSnapshots(sim: Simulation, steps: readonly TimelineStep[]): unknown[] {
  const due: { at: number; seq: number; run: () => void }[] = [];
  let seq = 0;
  const push = (at: number, run: () => void) => {
    due.push({ at, seq: seq++, run });
    due.sort((a, b) => a.at - b.at || a.seq - b.seq);
  };
  const answers: (ApiResponse | undefined)[] = [];
  const host: StepHost = {
    get state() {
      return sim.state;
    },
    request: (method, path, body) => sim.request(method, path, body),
    connect: (endpointId) => sim.connect(endpointId),
    at: (when, step) => push(sim.now() + Number(when.slice(1, -2)), step),
    sim,
  };
  let at = sim.now();
  for (const step of steps) {
    at += step.gapMs;
    push(at, () => answers.push(playStep(host, step.action)));
  }
  for (let next = due.shift(); next !== undefined; next = due.shift()) {
    if (next.at > sim.now()) sim.advanceTo(next.at);
    next.run();
  }
  return answers;
}

describe('a timeline played on the live state', () => {
  it('acts on the same objects as one played on published snapshots', () => {
    fc.assert(
      fc.property(timeline({ minSteps: 20, maxSteps: 40 }), (t) => {
        const live = new Simulation(withFaults({ seed: t.seed }, t.faults));
        const world = playTimeline(live, t);
        const snapshots = new Simulation(withFaults({ seed: t.seed }, t.faults));
        const answers = playOnSnapshots(snapshots, t.steps);
        expect(live.toJSONL()).toBe(snapshots.toJSONL());
        expect(world.answers).toEqual(answers);
      }),
      { numRuns: 25, seed: 16 },
    );
  });

  it('still hands out an immutable snapshot as the world state', () => {
    const sim = new Simulation({ seed: 3 });
    const world = playTimeline(sim, { steps: [{ gapMs: 0, action: { kind: 'createProject' } }] });
    expect(Object.isFrozen(world.state.projects)).toBe(true);
    expect(Object.keys(world.state.projects)).toHaveLength(1);
  });

  it('names objects by their place among those of every project, in creation order, wrapping around', () => {
    const sim = new Simulation({ seed: 5 });
    const world = playTimeline(sim, {
      steps: [
        { gapMs: 0, action: { kind: 'createProject' } },
        { gapMs: 60_000, action: { kind: 'createProject' } },
        { gapMs: 60_000, action: { kind: 'createBranch', project: 3, withCompute: true } },
        { gapMs: 60_000, action: { kind: 'createRole', branch: 2, role: 1 } },
        { gapMs: 60_000, action: { kind: 'createRole', branch: 4, role: 2 } },
        { gapMs: 60_000, action: { kind: 'suspend', compute: 5 } },
      ],
    });
    const [first, second] = Object.values(sim.state.projects);
    const [main, added] = Object.values(second!.branches);
    const body = (step: number) =>
      world.answers[step]?.body as {
        branch: { project_id: string };
        role: { branch_id: string };
        endpoint: { id: string };
      };
    expect(body(2).branch.project_id).toBe(second!.id);
    expect(body(3).role.branch_id).toBe(added!.id);
    expect(body(4).role.branch_id).toBe(main!.id);
    expect(body(5).endpoint.id).toBe(Object.keys(second!.endpoints)[1]);
    expect(Object.keys(first!.endpoints)).toHaveLength(1);
  });
});
