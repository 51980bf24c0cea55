/**
 * `clientProperty`: what it passes and what it fails, by whose verdict; what a failure prints; the
 * replay of a printed world; fault parts the failure does not need pruned from the counterexample.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  clientProperty,
  ClientPropertyError,
  CounterexampleError,
  timeline,
  type ClientContext,
  type Timeline,
} from '../../src/testing/index.js';
import { DEFAULT_START, type Simulation } from '../../src/index.js';

const DEFAULT_START_MS = Date.parse(DEFAULT_START);

/** A project, settled; its id. */
function aProject(sim: Simulation): string {
  const created = sim.request('POST', '/projects', { project: { name: 'app' } }).body;
  sim.runUntilIdle();
  return created.project.id as string;
}

/** Reads the project's endpoints once; `status` when it is not 200. */
async function readEndpoints(ctx: ClientContext, projectId: string): Promise<number> {
  const response = await ctx.fetch(`${ctx.baseURL}/projects/${projectId}/endpoints`);
  if (!response.ok) throw new Error(`GET endpoints: ${response.status}`);
  return response.status;
}

const noFaults = timeline({ maxSteps: 3, faults: fc.constant({}) });
const empty: Timeline = { seed: 1, faults: {}, steps: [] };

describe('clientProperty', () => {
  it('passes a client that does its job, run after run (monitors are fresh each run)', async () => {
    const reads = clientProperty({
      name: 'reads',
      setup: aProject,
      client: readEndpoints,
      worlds: noFaults,
    });
    await reads.assert({ numRuns: 30, seed: 3 });
  });

  it('fails a job that throws, by `job failed`, and prints the replay under the given name', async () => {
    const throws = clientProperty({
      name: 'throws',
      setup: aProject,
      client: async (ctx, projectId) => {
        await readEndpoints(ctx, projectId);
        throw new Error('the job gave up');
      },
      worlds: noFaults,
    });
    const failure = await throws.assert({ numRuns: 10, seed: 1 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CounterexampleError);
    const error = failure as CounterexampleError;
    expect(error.verdict.labels).toEqual(['job failed']);
    expect(error.message).toContain('job failed: it threw Error: the job gave up');
    expect(error.message).toContain('await throws.replay({');
    expect(error.world.steps).toEqual([]); // shrunk: the world played no part
    await expect(throws.replay(error.world)).rejects.toThrow('throws failed: job failed');
  });

  it("under `expect: 'end'`, a job that throws passes and one that never ends fails", async () => {
    const reports = clientProperty({
      name: 'reports',
      client: () => Promise.reject(new Error('reported')),
      expect: 'end',
    });
    expect((await reports.judge(empty)).labels).toEqual([]);
    const waitsForever = clientProperty({
      name: 'waitsForever',
      client: async (ctx) => {
        for (;;) await ctx.sleep(60_000);
      },
      expect: 'end',
      within: '1h',
    });
    const verdict = await waitsForever.judge(empty);
    expect(verdict.labels).toEqual(['timed_out']);
    expect(verdict.message).toContain('still waiting at the end of the run');
  });

  it("runs the property's own check on a run the rest passed, and labels its failure `check`", async () => {
    const checked = clientProperty({
      name: 'checked',
      setup: aProject,
      client: readEndpoints,
      check: (run) => {
        if (run.value !== 201) throw new Error(`expected 201, got ${run.value}`);
      },
    });
    const verdict = await checked.judge(empty);
    expect(verdict.labels).toEqual(['check']);
    expect(verdict.message).toBe('check: expected 201, got 200');
  });

  it('an oracle finding fails the run and names the oracle first', async () => {
    const pollsFast = clientProperty({
      name: 'pollsFast',
      setup: aProject,
      client: async (ctx, projectId) => {
        for (let i = 0; i < 3; i++) {
          await readEndpoints(ctx, projectId);
          await ctx.sleep(100);
        }
      },
    });
    const verdict = await pollsFast.judge(empty);
    expect(verdict.labels).toEqual(['pollsNoFasterThan']);
    expect(verdict.message.split('\n')[0]).toMatch(/^pollsNoFasterThan: GET .*endpoints/);
  });

  it('a setup that throws is reported as what it is, not as a counterexample', async () => {
    const broken = clientProperty({
      name: 'broken',
      setup: () => {
        throw new Error('no such fixture');
      },
      client: () => undefined,
      worlds: noFaults,
    });
    const failure = await broken.assert({ numRuns: 5 }).catch((error: unknown) => error);
    expect(failure).not.toBeInstanceOf(ClientPropertyError);
    expect(String(failure)).toContain('no such fixture');
  });

  it("makes the setup before the world's operation faults begin, which then apply to the run", async () => {
    const stuck = { failureRate: 0, maxRetries: 0, retryDelayMs: 0, delayRate: 1 };
    const threeDays = [3 * 86_400_000, 3 * 86_400_000] as const;
    const world: Timeline = {
      seed: 2,
      faults: {
        operations: {
          create_timeline: { ...stuck, delayMs: threeDays },
          suspend_compute: { ...stuck, delayMs: threeDays },
        },
      },
      steps: [],
    };
    const suspends = clientProperty({
      name: 'suspends',
      setup: aProject, // settles at once: its create_timeline is not held up
      client: async (ctx, projectId) => {
        const listed = await ctx.fetch(`${ctx.baseURL}/projects/${projectId}/endpoints`);
        const { endpoints } = (await listed.json()) as { endpoints: { id: string }[] };
        const path = `/projects/${projectId}/endpoints/${endpoints[0]!.id}/suspend`;
        const suspended = await ctx.fetch(`${ctx.baseURL}${path}`, { method: 'POST' });
        const { operations } = (await suspended.json()) as { operations: { id: string }[] };
        for (;;) {
          const polled = await ctx.fetch(
            `${ctx.baseURL}/projects/${projectId}/operations/${operations[0]!.id}`,
          );
          const { operation } = (await polled.json()) as { operation: { status: string } };
          if (operation.status === 'finished') return;
          await ctx.sleep(5_000);
        }
      },
      expect: 'end',
      within: '1h',
    });
    const verdict = await suspends.judge(world);
    // The suspend is held up by the world's faults, so the client, with no deadline, never ends.
    expect(verdict.labels).toEqual(['timed_out']);
    expect(verdict.run.record.requests[0]?.status).toBe(200);
    // Its setup settled in minutes: under the faults it would have waited three days.
    const started = verdict.run.sim.log.get(0)!.at;
    expect(verdict.run.startedAt - started).toBeLessThan(10 * 60_000);
  });

  it('with no log kept (nothing to fork), the faults apply from the start, setup included', async () => {
    const reads = clientProperty({
      name: 'reads',
      setup: aProject,
      client: readEndpoints,
      harness: { log: 'none' },
      monitors: () => [],
    });
    const slowStart = { failureRate: 0, maxRetries: 0, retryDelayMs: 0, delayRate: 1 };
    const world: Timeline = {
      seed: 3,
      faults: {
        operations: { create_timeline: { ...slowStart, delayMs: [3_600_000, 3_600_000] } },
      },
      steps: [],
    };
    const verdict = await reads.judge(world);
    expect(verdict.labels).toEqual([]);
    expect(verdict.run.startedAt - DEFAULT_START_MS).toBeGreaterThanOrEqual(3_600_000);
  });

  it('refuses a name that a printed test could not call', () => {
    expect(() => clientProperty({ name: 'my property', client: () => undefined })).toThrow(
      /name must be the variable/,
    );
  });

  it('prunes the fault parts a failure does not need from the printed counterexample', async () => {
    // Fails on its first 503; the 429 and operation fault parts never matter.
    const givesUpOn503 = clientProperty({
      name: 'givesUpOn503',
      setup: aProject,
      client: async (ctx, projectId) => {
        for (let i = 0; i < 20; i++) {
          await readEndpoints(ctx, projectId);
          await ctx.sleep(10_000);
        }
      },
      worlds: fc.constant<Timeline>({
        seed: 5,
        faults: {
          operations: { start_compute: { failureRate: 0.2, maxRetries: 1, retryDelayMs: 1_000 } },
          requests: {
            unavailable: { rate: 0.5 },
            rateLimited: { rate: 0.01, retryAfterSeconds: 1 },
          },
        },
        steps: [],
      }),
    });
    const failure = (await givesUpOn503.assert({ numRuns: 1 }).catch((e: unknown) => e)) as
      CounterexampleError | undefined;
    expect(failure).toBeInstanceOf(CounterexampleError);
    expect(failure!.world.faults).toEqual({ requests: { unavailable: { rate: 0.5 } } });
    expect(failure!.message).toContain('faults: { requests: { unavailable: { rate: 0.5 } } },');
    await expect(givesUpOn503.replay(failure!.world)).rejects.toThrow(/givesUpOn503 failed: /);
  });
});
