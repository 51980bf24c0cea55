/**
 * Long clock moves on a served simulation: they run in slices that give the same log as one call,
 * each ending when it and the writing after it have held the event loop about 15 ms (read between
 * chunks of timers, whatever they cost), runs under way at once taking turns, a slice a turn of the
 * event loop; they stop where they are when memory runs short or the state file fails (never
 * acknowledging what is not durable), and a run until idle that never settles says where the clock
 * got to.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replayLogFile } from '../../src/logfiles/replayLogFile.js';
import type { SimServerOptions } from '../../src/http/simServer.js';
import { serveOver } from '../support/transports.js';
import { StateFile } from '../../src/http/stateFile.js';
import { Simulation } from '../../src/index.js';
import { CHUNK_MS, runSliced, SLICE_MS } from '../../src/service/slicedRun.js';

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

  /**
   * Runs `timers` timers sliced on a clock of its own, each costing `cost(done)` ms to run and as
   * long again to write after its slice; the wall time of each slice, writing included.
   */
  async function sliceTimes(timers: number, cost: (done: number) => number): Promise<number[]> {
    let now = 0;
    let done = 0;
    let made = 0;
    let sliceStarted = 0;
    const times: number[] = [];
    const ended = await runSliced({
      clock: () => now,
      slice: (maxTimers) => {
        if (made === 0) sliceStarted = now;
        for (let i = 0; i < maxTimers && done < timers; i++, done++, made++) now += cost(done);
        return done < timers ? 'more' : 'done';
      },
      afterSlice: () => {
        for (let i = done - made; i < done; i++) now += cost(i);
        made = 0;
        times.push(now - sliceStarted);
        return undefined;
      },
    });
    expect(ended).toBe('done');
    return times;
  }

  it('take about SLICE_MS each, the writing after them included', async () => {
    // 1/64 ms a timer to run and as long to write: half of each slice is writing.
    const times = await sliceTimes(100_000, () => 1 / 64);
    // After the first (1,000 timers, whatever they cost), within a chunk of the mark.
    for (const time of times.slice(1, -1)) {
      expect(time).toBeGreaterThanOrEqual(SLICE_MS);
      expect(time).toBeLessThanOrEqual(SLICE_MS + 2 * CHUNK_MS);
    }
  });

  it('end when their time is up when timers turn costlier, not after a count of them', async () => {
    // From the 20,000th timer on, each costs 50 times as much (a day of heavy timers).
    const times = await sliceTimes(40_000, (done) => (done < 20_000 ? 1 / 64 : 50 / 64));
    // One chunk sized at the old cost overruns once (50 × CHUNK_MS, doubled by its writing); a
    // slice sized by a count of timers ran 50 times SLICE_MS.
    expect(Math.max(...times.slice(1))).toBeLessThanOrEqual(SLICE_MS + 2 * 50 * CHUNK_MS);
    for (const time of times.slice(1, -1).slice(-20))
      expect(time).toBeLessThanOrEqual(SLICE_MS + 4);
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
      // Four slices, on a clock of its own: each call of `slice` takes 1 ms.
      let left = 4;
      let now = 0;
      return runSliced({
        clock: () => now,
        slice: () => {
          now += 1;
          return left > 1 ? 'more' : 'done';
        },
        afterSlice: () => {
          slices.push({ run: name, turn });
          left--;
          return undefined;
        },
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
