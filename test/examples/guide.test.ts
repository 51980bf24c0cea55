/**
 * The complete example of docs/testing.md, run as a test (test/docs.test.ts keeps the two identical).
 */
// guide:start
import { createApiClient } from '@neondatabase/api-client';
import type { Simulation } from '../../src/index.js';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import {
  assertDeterministic,
  clientProperty,
  CounterexampleError,
  faultProfile,
  runClient,
  timeline,
  type ClientContext,
} from '../../src/testing/index.js';

// The code under test: restart the primary compute of a branch and wait until it is done.
// (`pollEveryMs` is the interval it polls at: 5 s, as the spec asks; the last test plants a bug.)
async function restartPrimary(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  pollEveryMs = 5_000,
) {
  // An answer's body; `undefined` when the object is gone (deleted meanwhile by someone else).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const api = async (method: string, path: string): Promise<any> => {
    for (let attempt = 0, delay = 5_000; ; attempt++, delay *= 2) {
      const response = await ctx.fetch(`${ctx.baseURL}/projects/${projectId}${path}`, {
        method,
        headers: { authorization: `Bearer ${ctx.apiKey}` },
      });
      if (response.ok) return response.json();
      if (response.status === 404) return undefined;
      const busy = [422, 423, 429].includes(response.status) || response.status >= 500;
      if (!busy || attempt === 6) throw new Error(`${method} ${path}: ${response.status}`);
      const retryAfter = Number(response.headers.get('retry-after') ?? 0) * 1_000;
      await ctx.sleep(Math.max(delay, retryAfter)); // back off 5 s, 10 s, 20 s… in virtual time
    }
  };
  const listed = await api('GET', '/endpoints');
  const primary = listed?.endpoints.find(
    (e: { branch_id: string; type: string }) => e.branch_id === branchId && e.type === 'read_write',
  );
  if (primary === undefined) return undefined;
  const restarted = await api('POST', `/endpoints/${primary.id}/restart`);
  if (restarted === undefined) return undefined; // deleted meanwhile: nothing left to restart
  const deadline = ctx.now() + 60 * 60_000; // an hour; then it reports instead of waiting on
  for (const { id } of restarted.operations)
    for (;;) {
      if (ctx.now() > deadline) throw new Error(`restart ${id} did not end within an hour`);
      const polled = await api('GET', `/operations/${id}`);
      if (polled === undefined) return undefined; // its project deleted meanwhile
      const { status } = polled.operation;
      if (['finished', 'skipped'].includes(status)) break;
      // `failed` is retried by the control plane: keep polling; `error` and `cancelled` are final,
      // unless the compute itself is gone (deleted meanwhile: nothing left to restart).
      if (['error', 'cancelled'].includes(status)) {
        if ((await api('GET', `/endpoints/${primary.id}`)) === undefined) return undefined;
        throw new Error(`restart ${status}`);
      }
      await ctx.sleep(pollEveryMs);
    }
  return primary.id as string;
}

// The setup each run starts from, on the run's fresh simulation: a project, settled.
function aProject(sim: Simulation) {
  const created = sim.request('POST', '/projects', { project: { name: 'app' } }).body;
  sim.runUntilIdle();
  return { projectId: created.project.id as string, branchId: created.branch.id as string };
}

// The property: in any world (a generated timeline playing around the client, under the default
// faults, those a careful client survives) the job succeeds, the default oracles find nothing
// wrong in what the client did, and the monitors nothing wrong in the simulation's log.
// `name` is the variable's: a failure prints a test that calls `restart.replay(…)`.
const restart = clientProperty({
  name: 'restart',
  setup: aProject,
  client: (ctx, { projectId, branchId }) => restartPrimary(ctx, projectId, branchId),
});

it('restarts the primary in any world, and the simulation keeps its invariants', async () => {
  await restart.assert({ numRuns: 100 });
}, 60_000); // 100 runs: under a second here, more than vitest's default 5 s on a busy machine

// The second property: under harsh faults (operations that end in error or stay stuck for days)
// the job may fail, but the client reports it and ends: it never waits forever.
const restartUnderHarshFaults = clientProperty({
  name: 'restartUnderHarshFaults',
  setup: aProject,
  client: (ctx, { projectId, branchId }) => restartPrimary(ctx, projectId, branchId),
  worlds: timeline({ maxSteps: 10, faults: faultProfile({ preset: 'harsh' }) }),
  expect: 'end', // returned or threw; not 'timed_out': it has a deadline
});

it('ends under harsh faults: it reports a failure rather than waiting forever', async () => {
  await restartUnderHarshFaults.assert({ numRuns: 100 });
}, 60_000);

// A planted bug: the same client polling every second. The property finds it and shrinks it.
const restartPollingEverySecond = clientProperty({
  name: 'restartPollingEverySecond',
  setup: aProject,
  client: (ctx, { projectId, branchId }) => restartPrimary(ctx, projectId, branchId, 1_000),
});

it('finds a planted bug, shrinks it, and prints a test that replays it', async () => {
  const failure = await restartPollingEverySecond.assert({ numRuns: 100 }).catch((e) => e);
  expect(failure).toBeInstanceOf(CounterexampleError);
  expect(failure.verdict.labels).toContain('pollsNoFasterThan');
  expect(failure.world.steps).toHaveLength(0); // no world needed: the client alone polls too fast
  expect(failure.message).toContain('await restartPollingEverySecond.replay({');
}, 60_000);

// The test that failure printed, pasted here: it fails the same way until the client is fixed
// (wrapped in `rejects` only because this bug is planted on purpose).
it('restartPollingEverySecond replays a counterexample (pollsNoFasterThan)', async () => {
  await expect(
    restartPollingEverySecond.replay({
      seed: 1,
      faults: {},
      steps: [],
    }),
  ).rejects.toThrow('restartPollingEverySecond failed: pollsNoFasterThan');
});

it('is deterministic: one seed, one event log', async () => {
  const [world] = fc.sample(timeline({ maxSteps: 10 }), { numRuns: 1, seed: 7 });
  await assertDeterministic(() => restart.replay(world!), world!.seed);
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
