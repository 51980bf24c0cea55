/**
 * The complete example of docs/testing.md, run as a test (test/docs.test.ts keeps the two identical).
 */
// guide:start
import { createApiClient } from '@neondatabase/api-client';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import {
  assertClient,
  assertDeterministic,
  assertLogClean,
  defaultOracles,
  faultProfile,
  runClient,
  SimHarness,
  timeline,
  type ClientContext,
  type Timeline,
} from '../../src/testing/index.js';

// The code under test: restart the primary compute of a branch and wait until it is done.
async function restartPrimary(ctx: ClientContext, projectId: string, branchId: string) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const api = async (method: string, path: string): Promise<any> => {
    for (let attempt = 0, delay = 5_000; ; attempt++, delay *= 2) {
      const response = await ctx.fetch(`${ctx.baseURL}/projects/${projectId}${path}`, {
        method,
        headers: { authorization: `Bearer ${ctx.apiKey}` },
      });
      if (response.ok) return response.json();
      const busy = [422, 423, 429].includes(response.status) || response.status >= 500;
      if (!busy || attempt === 6) throw new Error(`${method} ${path}: ${response.status}`);
      const retryAfter = Number(response.headers.get('retry-after') ?? 0) * 1_000;
      await ctx.sleep(Math.max(delay, retryAfter)); // back off 5 s, 10 s, 20 s… in virtual time
    }
  };
  const { endpoints } = await api('GET', '/endpoints');
  const primary = endpoints.find(
    (e: { branch_id: string; type: string }) => e.branch_id === branchId && e.type === 'read_write',
  );
  if (primary === undefined) return undefined;
  const { operations } = await api('POST', `/endpoints/${primary.id}/restart`);
  for (const { id } of operations)
    for (;;) {
      const { operation } = await api('GET', `/operations/${id}`);
      if (operation.status === 'finished') break;
      if (['error', 'cancelled', 'failed'].includes(operation.status))
        throw new Error(`restart ${operation.status}`);
      await ctx.sleep(5_000); // poll no faster than every 5 s
    }
  return primary.id as string;
}

// One run: a project, then the client while a generated timeline (with faults) plays around it.
async function runOnce(world: Timeline) {
  const harness = new SimHarness({ seed: world.seed, faults: world.faults });
  const created = harness.sim.request('POST', '/projects', { project: { name: 'app' } }).body;
  harness.sim.runUntilIdle();
  return harness.run(
    (ctx) => restartPrimary(ctx, created.project.id, created.branch.id).catch(() => undefined),
    { world: world.steps, within: '1d' },
  );
}

it('behaves under any timeline and faults, and the simulation keeps its invariants', async () => {
  await fc.assert(
    fc.asyncProperty(timeline({ maxSteps: 10, faults: faultProfile() }), async (world) => {
      const run = await runOnce(world);
      expect(run.outcome).toBe('returned');
      assertClient(run.record, defaultOracles()); // waits, polls, retries, reads the right compute
      assertLogClean(run.sim.log); // one primary per branch, operations end, no idle resizes…
    }),
    { numRuns: 100 },
  );
});

it('is deterministic: one seed, one event log', async () => {
  const [world] = fc.sample(timeline({ maxSteps: 10 }), { numRuns: 1, seed: 7 });
  await assertDeterministic(() => runOnce(world!), world!.seed);
});

it('works with the official SDK through the axios adapter', async () => {
  const run = await runClient(async (ctx) => {
    const { apiKey, baseURL, axiosAdapter } = ctx;
    const api = createApiClient({ apiKey, baseURL, adapter: axiosAdapter as never });
    const { data } = await api.createProject({ project: { name: 'sdk' } });
    return data.project.id;
  });
  expect(run.sim.state.projects[run.value!]).toBeDefined();
});
// guide:end
