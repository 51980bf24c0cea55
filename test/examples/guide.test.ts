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

// One run: a project, then the client while a generated timeline (with faults) plays around it.
async function runOnce(world: Timeline, pollEveryMs?: number) {
  const harness = new SimHarness({ seed: world.seed, faults: world.faults });
  const created = harness.sim.request('POST', '/projects', { project: { name: 'app' } }).body;
  harness.sim.runUntilIdle();
  return harness.run(
    (ctx) => restartPrimary(ctx, created.project.id, created.branch.id, pollEveryMs),
    { world: world.steps, within: '1d' },
  );
}

// The property: under any timeline and the default faults (those a careful client survives), the
// job succeeds, the client behaves, and the simulation keeps its invariants.
const behaves = (pollEveryMs?: number) =>
  fc.asyncProperty(timeline({ maxSteps: 10, faults: faultProfile() }), async (world) => {
    const run = await runOnce(world, pollEveryMs);
    expect(run.outcome).toBe('returned'); // the job succeeded: no error was swallowed
    assertClient(run.record, defaultOracles()); // waits, polls, retries, reads the right compute
    assertLogClean(run.sim.log); // one primary per branch, operations end, no idle resizes…
  });

it('behaves under any timeline and faults, and the simulation keeps its invariants', async () => {
  await fc.assert(behaves(), { numRuns: 100 });
});

// The second property: under harsh faults (operations that end in error or stay stuck for days)
// the job may fail, but the client reports it and ends: it never waits forever.
it('ends under harsh faults: it reports a failure rather than waiting forever', async () => {
  const harsh = timeline({ maxSteps: 10, faults: faultProfile({ preset: 'harsh' }) });
  await fc.assert(
    fc.asyncProperty(harsh, async (world) => {
      const run = await runOnce(world);
      expect(['returned', 'threw']).toContain(run.outcome); // not 'timed_out': it has a deadline
    }),
    { numRuns: 100 },
  );
});

it('finds a planted bug and shrinks it: the same client polling every second', async () => {
  const details = await fc.check(behaves(1_000), { numRuns: 100 });
  expect(details.failed).toBe(true);
  expect(String(details.errorInstance)).toContain('pollsNoFasterThan');
  const [shrunk] = details.counterexample as [Timeline];
  expect(shrunk.steps).toHaveLength(0); // no world needed: the client alone polls too fast
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
