/**
 * Long clock moves on a served simulation: they run in slices that give the same log as one call,
 * each sized so that it and the writing after it hold the event loop about 15 ms, runs under way at
 * once taking turns, a slice a turn of the event loop; they stop where they are when memory runs
 * short or the state file fails (never acknowledging what is not durable), and a run until idle
 * that never settles says where the clock got to.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replayLogFile } from '../../src/files/replayLogFile.js';
import type { SimServerOptions } from '../../src/http/simServer.js';
import { serveOver } from '../support/transports.js';
import { StateFile } from '../../src/http/stateFile.js';
import { Simulation } from '../../src/index.js';
import { runSliced, SLICE_MS } from '../../src/service/slicedRun.js';

async function serve(sim: Simulation, options: Partial<SimServerOptions> = {}) {
  const served = await serveOver('socket', options, sim);
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await served.call(method, path, body);
    return { status: answer.status, body: answer.body ?? {} };
  };
  return { server: served.server, call };
}

function withProjects(n: number, seed = 4): Simulation {
  const sim = new Simulation({ seed });
  for (let i = 0; i < n; i++) sim.request('POST', '/projects', { project: { name: `p${i}` } });
  return sim;
}

/** Deletes the second project of `sim`, leaving its timers to fire on nothing. */
function withoutOne(sim: Simulation): Simulation {
  const id = Object.keys(sim.state.projects)[1] as string;
  expect(sim.request('DELETE', `/projects/${id}`).status).toBe(200);
  return sim;
}

describe('slices', () => {
  it('give the same log as one advance, whatever the slice size', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 4 }),
        (seed, maxTimers, projects) => {
          const whole = withoutOne(withProjects(projects + 1, seed));
          const sliced = withoutOne(withProjects(projects + 1, seed));
          const target = whole.now() + 3 * 86_400_000;
          whole.advanceTo(target);
          while (!sliced.advanceToward(target, maxTimers));
          expect(sliced.toJSONL()).toBe(whole.toJSONL());
        },
      ),
      { numRuns: 40 },
    );
  });

  it('give the same log as one run until idle', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 50 }),
        (seed, maxTimers) => {
          // A deleted project leaves timers that fire and find nothing: slices may end on them.
          const whole = withoutOne(withProjects(3, seed));
          const sliced = withoutOne(withProjects(3, seed));
          const deadline = whole.now() + 30 * 86_400_000;
          whole.runUntilIdle();
          let outcome: string;
          do outcome = sliced.runTowardIdle(deadline, maxTimers);
          while (outcome === 'more');
          expect(outcome).toBe('idle');
          expect(sliced.toJSONL()).toBe(whole.toJSONL());
        },
      ),
      { numRuns: 40 },
    );
  });

  it('are sized by what a slice and the writing after it take together, not the slice alone', async () => {
    // A clock of its own: each timer takes 1/64 ms to run and as long again to write to the file.
    let now = 0;
    const sizes: number[] = [];
    let left = 100_000;
    const ended = await runSliced({
      clock: () => now,
      slice: (maxTimers) => {
        sizes.push(maxTimers);
        const ran = Math.min(maxTimers, left);
        left -= ran;
        now += ran / 64;
        return left > 0 ? 'more' : 'done';
      },
      afterSlice: () => {
        now += (sizes.at(-1) as number) / 64;
        return undefined;
      },
    });
    expect(ended).toBe('done');
    // 1/32 ms a timer all told: 480 timers make SLICE_MS (the slice alone would allow 960).
    expect(new Set(sizes.slice(1))).toEqual(new Set([SLICE_MS * 32]));
  });

  it('of runs under way at once take turns: one slice a turn of the event loop, in order', async () => {
    // Counts the turns of the event loop while the runs go.
    let turn = 0;
    let counting = true;
    const count = () => {
      turn++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const slices: { readonly run: string; readonly turn: number }[] = [];
    const run = (name: string) => {
      let left = 4;
      return runSliced({
        slice: () => {
          slices.push({ run: name, turn });
          return --left > 0 ? 'more' : 'done';
        },
        afterSlice: () => undefined,
      });
    };
    await Promise.all([run('a'), run('b'), run('c')]);
    counting = false;
    // The first slices go when asked for; after them, no two slices share a turn.
    const later = slices.slice(3);
    expect(new Set(later.map((slice) => slice.turn)).size).toBe(later.length);
    expect(slices.map((slice) => slice.run).join('')).toBe('abcabcabcabc');
  });
});

describe('a long move that cannot go on', () => {
  it('stops with 507 where it got when memory runs short, durable, and the server keeps serving', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'computesim-sliced-')), 'state.jsonl');
    // Full from the first check on, which comes after the first slice: that slice's size is fixed,
    // later ones grow with the machine's speed, so counting slices would make the test timing-bound.
    const { server, call } = await serve(withProjects(10), {
      stateFile: StateFile.open(path),
      memoryFull: () => ({ code: 'insufficient_storage', message: 'memory is 90% full' }),
    });
    const start = server.sim.now();
    const stopped = await call('POST', '/_sim/advance', { by: '3650d' });
    expect(stopped.status).toBe(507);
    expect(stopped.body['message']).toMatch(
      /advance .* stopped: memory is 90% full; the clock is at/,
    );
    const now = server.sim.now();
    expect(now).toBeGreaterThan(start);
    expect(now).toBeLessThan(start + 3650 * 86_400_000);
    expect((await call('GET', '/_sim/clock')).body['now_ms']).toBe(now);
    expect(replayLogFile(path).simulation?.state).toEqual(server.sim.state);
    expect((await call('POST', '/projects', { project: { name: 'after' } })).status).toBe(201);
  });

  it('answers 503 and rolls back to the file when the state file fails midway', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'computesim-sliced-')), 'state.jsonl');
    const { server, call } = await serve(withProjects(20), { stateFile: StateFile.open(path) });
    const advance = call('POST', '/_sim/advance', { by: '7300d' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    rmSync(path);
    mkdirSync(path); // every write now fails
    const answer = await advance;
    expect(answer.status).toBe(503);
    expect(answer.body['code']).toBe('service_unavailable');
    rmSync(path, { recursive: true });
    // What is served is exactly what was durable before the failure: no acknowledged-looking
    // advance beyond it, and the server still answers.
    expect(server.sim.now()).toBeLessThan(server.sim.log.get(0)!.at + 7300 * 86_400_000);
    expect((await call('GET', '/_sim/clock')).status).toBe(200);
  });

  it('answers 409 still_busy for a run until idle that never settles, saying where the clock is', async () => {
    const sim = new Simulation({
      seed: 2,
      profile: {
        faults: { suspend_compute: { failureRate: 1, maxRetries: 0, retryDelayMs: 1_000 } },
      },
    });
    sim.request('POST', '/projects', { project: { name: 'restless' } });
    const { call } = await serve(sim);
    const answer = await call('POST', '/_sim/run_until_idle', { within: '2h' });
    expect(answer.status).toBe(409);
    expect(answer.body['code']).toBe('still_busy');
    expect(answer.body['message']).toMatch(/the clock moved to 2026-/);
  });
});
