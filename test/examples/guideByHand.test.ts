/**
 * The guide's property written by hand (docs/testing.md, "Writing the property yourself"), run as
 * a test; test/docs.test.ts keeps the two identical.
 */
// byHand:start
import fc from 'fast-check';
import { expect, it } from 'vitest';
import {
  assertClient,
  assertLogClean,
  defaultOracles,
  faultProfile,
  SimHarness,
  timeline,
  type ClientContext,
  type Timeline,
} from '../../src/testing/index.js';

// The code under test: create a branch and wait until its operations have ended.
type Operation = { id: string; status: string };
async function createBranch(ctx: ClientContext, projectId: string) {
  const url = `${ctx.baseURL}/projects/${projectId}`;
  const send = async (path: string, init?: RequestInit) => {
    for (let attempt = 0; ; attempt++) {
      const response = await ctx.fetch(`${url}${path}`, init);
      const busy = [422, 423, 429].includes(response.status) || response.status >= 500;
      // 8 retries from 1 s, doubling: about 4 minutes, the budget the honest profile asks for.
      if (!busy || attempt === 8) return response;
      const retryAfter = Number(response.headers.get('retry-after') ?? 0) * 1_000;
      await ctx.sleep(Math.max(1_000 * 2 ** attempt, retryAfter));
    }
  };
  const created = await send('/branches', { method: 'POST', body: '{}' });
  if (!created.ok) throw new Error(`create branch: ${created.status}`);
  const { branch, operations } = (await created.json()) as {
    branch: { id: string };
    operations: Operation[];
  };
  for (const { id } of operations)
    for (let polls = 0; ; polls++) {
      if (polls === 720) throw new Error(`operation ${id} did not end within an hour`);
      const polled = await send(`/operations/${id}`);
      if (!polled.ok) throw new Error(`poll ${id}: ${polled.status}`);
      const { status } = ((await polled.json()) as { operation: Operation }).operation;
      if (['finished', 'skipped'].includes(status)) break;
      if (['error', 'cancelled'].includes(status)) throw new Error(`operation ${status}`);
      await ctx.sleep(5_000);
    }
  return branch.id;
}

// One run, by hand: the harness, the setup, the client while the world plays around it.
async function runOnce(world: Timeline) {
  const harness = new SimHarness({ seed: world.seed, faults: world.faults });
  const created = harness.sim.request('POST', '/projects', { project: { name: 'app' } }).body;
  harness.sim.runUntilIdle();
  return harness.run((ctx) => createBranch(ctx, created.project.id), {
    world: world.steps,
    within: '1d',
  });
}

it('creates a branch in any world, and the simulation keeps its invariants', async () => {
  const worlds = timeline({ maxSteps: 10, faults: faultProfile() });
  await fc.assert(
    fc.asyncProperty(worlds, async (world) => {
      const run = await runOnce(world);
      expect(run.outcome).toBe('returned'); // the job succeeded
      assertClient(run.record, defaultOracles()); // what the client did
      assertLogClean(run.sim.log); // what the simulation did
    }),
    { numRuns: 100 },
  );
}, 60_000);

// A world fast-check printed (the literal after "as a literal, to replay it"), pasted to run again.
it('replays a printed world', async () => {
  const run = await runOnce({
    seed: 1,
    faults: { requests: { locked: { rate: 0.5, burst: [1, 3] } } },
    steps: [{ gapMs: 0, action: { kind: 'restart', compute: 0 } }],
  });
  expect(run.outcome).toBe('returned');
  assertClient(run.record, defaultOracles());
});
// byHand:end
