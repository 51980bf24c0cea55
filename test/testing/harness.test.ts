import { createApiClient } from '@neondatabase/api-client';
import { describe, expect, it } from 'vitest';
import {
  assertDeterministic,
  DeterminismError,
  runClient,
  SimHarness,
  type ClientContext,
} from '../../src/testing/index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = (response: Response): Promise<any> => response.json();

/** Creates a project and polls its operations every 5 s; returns the project id. */
async function createAndWait(ctx: ClientContext): Promise<string> {
  const post = await ctx.fetch(`${ctx.baseURL}/projects`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.apiKey}` },
    body: JSON.stringify({ project: { name: 'h' } }),
  });
  const { project, operations } = await json(post);
  for (const op of operations)
    for (;;) {
      const got = await ctx.fetch(`${ctx.baseURL}/projects/${project.id}/operations/${op.id}`);
      if ((await json(got)).operation.status === 'finished') break;
      await ctx.sleep(5_000);
    }
  return project.id;
}

describe('runClient', () => {
  it('runs a fetch client to its end, moving virtual time only while it sleeps', async () => {
    const run = await runClient(createAndWait, { seed: 3 });
    expect(run.outcome).toBe('returned');
    expect(run.sim.state.projects[run.value as string]).toBeDefined();
    const times = run.record.requests.map((r) => r.at - run.startedAt);
    expect(times[0]).toBe(0);
    expect(times.every((t, i) => t % 5_000 === 0 && (i === 0 || t >= times[i - 1]!))).toBe(true);
    expect(times.at(-1)).toBeGreaterThan(0);
    expect(run.endedAt - run.startedAt).toBe(times.at(-1));
  });

  it('is deterministic: the same seed and faults give the same record and log', async () => {
    const options = {
      seed: 9,
      faults: {
        operations: { start_compute: { failureRate: 0.5, maxRetries: 2, retryDelayMs: 3_000 } },
        requests: { locked: { rate: 0.3 }, rateLimited: { rate: 0.2 } },
      },
    };
    const once = () => runClient((ctx) => createAndWait(ctx).catch(() => 'x'), options);
    const [a, b] = [await once(), await once()];
    expect(a.record).toEqual(b.record);
    await assertDeterministic(() => once(), 9);
  });

  it('tells a stuck, a busy, a timed-out and a throwing client apart', async () => {
    const stuck = await runClient(() => new Promise<never>(() => {}));
    expect(stuck.outcome).toBe('stuck');
    const busy = await runClient(
      async ({ fetch, baseURL }) => {
        for (;;) await fetch(`${baseURL}/projects`);
      },
      { maxActionsPerInstant: 200 },
    );
    expect(busy.outcome).toBe('busy');
    const slow = await runClient(({ sleep }) => sleep(3 * 86_400_000), { within: '2d' });
    expect(slow.outcome).toBe('timed_out');
    expect(slow.endedAt - slow.startedAt).toBe(2 * 86_400_000);
    const threw = await runClient(() => Promise.reject(new Error('boom')));
    expect(threw).toMatchObject({ outcome: 'threw', error: new Error('boom') });
  });

  it('refuses requests once the run is over', async () => {
    let late: ClientContext | undefined;
    await runClient((ctx) => {
      late = ctx;
    });
    expect(() => late!.fetch(`${late!.baseURL}/projects`)).toThrow(/run is over/);
  });

  it('wakes virtual timeouts in order and honours clearTimeout', async () => {
    const run = await runClient(async ({ setTimeout, clearTimeout, sleep, now }) => {
      const fired: string[] = [];
      const start = now();
      setTimeout(() => fired.push(`b@${now() - start}`), 2_000);
      setTimeout(() => fired.push(`a@${now() - start}`), 1_000);
      const cancelled = setTimeout(() => fired.push('never'), 1_500);
      clearTimeout(cancelled);
      await sleep(3_000);
      return fired;
    });
    expect(run.value).toEqual(['a@1000', 'b@2000']);
  });
});

describe('the client edge', () => {
  it('answers like the HTTP server: 404 outside /api/v2, 400 for bad JSON, 401 without the key', async () => {
    const run = await runClient(
      async ({ fetch, baseURL }) => {
        const outside = await fetch('http://computesim.test/v1/projects');
        const badJson = await fetch(`${baseURL}/projects`, {
          method: 'POST',
          headers: { authorization: 'Bearer k' },
          body: '{',
        });
        const noKey = await fetch(`${baseURL}/projects`);
        return [outside.status, badJson.status, (await json(badJson)).code, noKey.status];
      },
      { apiKey: 'k' },
    );
    expect(run.value).toEqual([404, 400, 'invalid_input', 401]);
  });

  it('injects 429s with Retry-After, only on the routes named, replayed by the seed', async () => {
    const faults = {
      requests: {
        routes: { 'GET /projects': { rateLimited: { rate: 1, retryAfterSeconds: 7 } } },
      },
    };
    const run = await runClient(
      async ({ fetch, baseURL }) => {
        const limited = await fetch(`${baseURL}/projects`);
        const other = await fetch(`${baseURL}/projects`, {
          method: 'POST',
          body: '{"project":{}}',
        });
        return [limited.status, limited.headers.get('retry-after'), other.status];
      },
      { faults },
    );
    expect(run.value).toEqual([429, '7', 201]);
    expect(run.record.requests[0]).toMatchObject({
      injected: 'rate_limited',
      retryAfterSeconds: 7,
    });
  });

  it('injects 503s the simulation never sees, and no more than three faults in a row per request', async () => {
    const faults = { requests: { unavailable: { rate: 1, retryAfterSeconds: 2 } } };
    const run = await runClient(
      async ({ fetch, baseURL }) => {
        const statuses: number[] = [];
        for (let i = 0; i < 5; i += 1)
          statuses.push(
            (await fetch(`${baseURL}/projects`, { method: 'POST', body: '{"project":{}}' })).status,
          );
        return statuses;
      },
      { faults },
    );
    // Every answer would be a 503 at rate 1; the fourth gets through, and the count starts again.
    expect(run.value).toEqual([503, 503, 503, 201, 503]);
    expect(run.record.requests[0]).toMatchObject({ injected: 'unavailable', retryAfterSeconds: 2 });
    expect(Object.keys(run.sim.state.projects)).toHaveLength(1);
  });

  it("counts the simulation's own refusals in a request's streak: no fault lengthens one past the bound", async () => {
    const run = await runClient(
      async ({ fetch, baseURL }) => {
        const created = await fetch(`${baseURL}/projects`, {
          method: 'POST',
          body: '{"project":{}}',
        });
        const { project } = (await created.json()) as { project: { id: string } };
        // No time passes: the branch is not ready, and the simulation refuses with 422 itself.
        const statuses: number[] = [];
        for (let i = 0; i < 6; i += 1)
          statuses.push(
            (await fetch(`${baseURL}/projects/${project.id}/branches`, { method: 'POST' })).status,
          );
        return statuses;
      },
      {
        faults: {
          requests: {
            routes: { 'POST /projects/{project_id}/branches': { unavailable: { rate: 1 } } },
          },
        },
      },
    );
    // Three injected 503s, then the simulation's own 422s: with those in the streak, no more 503.
    expect(run.value).toEqual([503, 503, 503, 422, 422, 422]);
  });

  it('decides each kind of request fault on its own: leaving one out leaves the others as they were', async () => {
    /** Which requests met which injected fault, a GET and a POST to a new path each time. */
    const injected = async (requests: object) => {
      const run = await runClient(
        async ({ fetch, baseURL }) => {
          const created = await fetch(`${baseURL}/projects`, {
            method: 'POST',
            body: '{"project":{}}',
          });
          const id = ((await created.json()) as { project?: { id: string } }).project?.id ?? 'x';
          for (let i = 0; i < 60; i += 1) {
            await fetch(`${baseURL}/projects/${id}/operations?cursor=${i}`);
            await fetch(`${baseURL}/projects/${id}/branches/b-${i}/roles`, {
              method: 'POST',
              body: '{"role":{"name":"r"}}',
            });
          }
        },
        { seed: 9, faults: { requests } },
      );
      return run.record.requests.map((r) => r.injected ?? '-');
    };
    const all = await injected({
      locked: { rate: 0.2, burst: [1, 1] },
      rateLimited: { rate: 0.2 },
      unavailable: { rate: 0.2 },
    });
    const without = await injected({
      locked: { rate: 0.2, burst: [1, 1] },
      rateLimited: { rate: 0.2 },
    });
    expect(all).toContain('unavailable');
    // Every 429 and every request that met no fault stay; only the 503s change (to what the
    // others decided for those requests).
    all.forEach((kind, i) => {
      if (kind === 'rate_limited' || kind === '-') expect(without[i]).toBe(kind);
      if (kind === 'unavailable') expect(['locked', '-']).toContain(without[i]);
    });
  });

  it('refuses a malformed fault profile with a message naming the field', () => {
    expect(() => new SimHarness({ faults: { requests: { locked: { rate: 2 } } } })).toThrow(
      /faults\.requests\.locked\.rate must be in 0\.\.1/,
    );
    expect(() => new SimHarness({ faults: { operations: { nope: {} } as never } })).toThrow(
      /faults\.operations: unknown action "nope"/,
    );
    expect(() => new SimHarness({ faults: { latency: {} } as never })).toThrow(
      /unknown part "latency"/,
    );
  });

  it('drops open connections at the rate the fault profile gives', async () => {
    const run = await runClient(
      async ({ fetch, baseURL, connect, sleep }) => {
        const { endpoints } = await json(
          await fetch(`${baseURL}/projects`, { method: 'POST', body: '{"project":{}}' }),
        );
        await sleep(60_000);
        const connection = connect(endpoints[0].id, { purpose: 'write' });
        await sleep(10 * 3_600_000);
        return [connection.state, connection.error?.sqlstate];
      },
      { seed: 4, faults: { connections: { dropsPerHour: 2 } }, within: '2d' },
    );
    expect(run.value).toEqual(['dropped', '57P01']);
    expect(run.record.connections[0]).toMatchObject({
      purpose: 'write',
      endpointType: 'read_write',
    });
  });

  it('serves the official SDK through the axios adapter, errors as axios errors', async () => {
    const run = await runClient(
      async ({ axiosAdapter, baseURL, apiKey }) => {
        const api = createApiClient({ apiKey, baseURL, adapter: axiosAdapter as never });
        const { data } = await api.createProject({ project: { name: 'sdk' } });
        const listed = await api.listProjectOperations({ projectId: data.project.id, limit: 1 });
        const failure = await api.getProject('nope').catch((e: unknown) => e);
        return {
          listed: listed.data.operations.length,
          axios: (failure as { isAxiosError?: boolean }).isAxiosError,
          status: (failure as { response?: { status: number } }).response?.status,
        };
      },
      { apiKey: 'sdk-key' },
    );
    expect(run.value).toEqual({ listed: 1, axios: true, status: 404 });
    expect(run.record.requests.map((r) => r.route)).toEqual([
      '/projects',
      '/projects/{project_id}/operations',
      '/projects/{project_id}',
    ]);
  });

  it('plays a world timeline alongside the client', async () => {
    const run = await runClient(
      async ({ sleep, now }) => {
        await sleep(120_000);
        return now();
      },
      {
        seed: 2,
        world: [
          { gapMs: 1_000, action: { kind: 'createProject' } },
          { gapMs: 60_000, action: { kind: 'restart', compute: 0 } },
        ],
      },
    );
    const log = [...run.sim.log];
    expect(log.filter((e) => e.type === 'ProjectCreated').map((e) => e.at)).toEqual([
      run.startedAt + 1_000,
    ]);
    expect(run.record.requests).toEqual([]);
  });
});

describe('assertDeterministic', () => {
  it('reports the first log line where two runs with one seed part', async () => {
    let calls = 0;
    const error = await assertDeterministic((seed) => {
      const harness = new SimHarness({ seed });
      harness.sim.request('POST', '/projects', { project: { name: `run-${calls++}` } });
      return harness;
    }, 5).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeterminismError);
    expect((error as DeterminismError).divergence.line).toBe(2);
    expect(String(error)).toMatch(
      /seed 5 diverged at log line 2:\n {2}first: .*run-0.*\n {2}second: .*run-1/,
    );
  });
});
