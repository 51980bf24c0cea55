/**
 * The world the example clients run in: a project with its main branch and a `migration` branch
 * without a compute, settled, then a generated timeline played around (or before) the client.
 */
import {
  SimHarness,
  playTimeline,
  type ClientRun,
  type Timeline,
} from '../../src/testing/index.js';
import { migrate, type Bug } from './clients/migrationClient.js';

/** How the timeline meets the client: all before it starts, or alongside it. */
export type WorldMode = 'before' | 'alongside';

/** Runs the migration client (with `bug`, if any) in the world of `timeline`. */
export async function runMigration(
  timeline: Timeline,
  mode: WorldMode,
  bug?: Bug,
): Promise<ClientRun<string>> {
  const harness = new SimHarness({ seed: timeline.seed, faults: timeline.faults });
  const { sim } = harness;
  const projectId: string = sim.request('POST', '/projects', { project: { name: 'app' } }).body
    .project.id;
  sim.runUntilIdle();
  const branchId: string = sim.request('POST', `/projects/${projectId}/branches`, {
    branch: { name: 'migration' },
  }).body.branch.id;
  sim.runUntilIdle();
  if (mode === 'before') {
    playTimeline(sim, timeline);
    sim.runUntilIdle();
  }
  return harness.run((ctx) => migrate(ctx, { projectId, branchId }, bug), {
    within: '1d',
    ...(mode === 'alongside' ? { world: timeline.steps } : {}),
  });
}
