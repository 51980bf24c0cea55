/**
 * A long clock move can be stopped: by its client going away, or by `DELETE /_sim/advance`. It
 * stops between slices, durable like a move that arrived, and the clock is free for the next move.
 * Every stop here waits for the move to be seen under way (the clock past where it started), never
 * for a fixed time.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayLogFile } from '../../src/logfiles/replayLogFile.js';
import { StateFile } from '../../src/http/stateFile.js';
import { Simulation } from '../../src/index.js';
import { KEY, serveOver, type Transport } from '../support/transports.js';

const FIFTY_YEARS_MS = 18_250 * 86_400_000;

/** Many projects, so fifty years of their timers take far longer than any test waits. */
function busyFleet(): Simulation {
  const sim = new Simulation({ seed: 7 });
  for (let i = 0; i < 200; i++) sim.request('POST', '/projects', { project: { name: `p${i}` } });
  return sim;
}

async function served(transport: Transport = 'socket') {
  const path = join(mkdtempSync(join(tmpdir(), 'computesim-stop-')), 'state.jsonl');
  const { server, base, send, call } = await serveOver(
    transport,
    { stateFile: StateFile.open(path) },
    busyFleet(),
  );
  const now = async () => (await call('GET', '/_sim/clock')).body['now_ms'] as number;
  /** Polls the clock until it has moved past `start` (a move is under way), within 20 s. */
  const movedPast = async (start: number) => {
    const bound = Date.now() + 20_000;
    let seen = start;
    while (seen <= start) {
      if (Date.now() > bound) throw new Error(`the clock never moved past ${start}`);
      seen = await now();
    }
  };
  /** Starts a fifty-year advance whose request `signal` can abort (its client going away). */
  const advanceFiftyYears = (signal: AbortSignal) =>
    send(`${base}/_sim/advance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ by: '18250d' }),
      signal,
    });
  return { path, server, call, now, movedPast, advanceFiftyYears };
}

describe('a long clock move', () => {
  it('stops when its client goes away, durable, and the clock takes the next advance', async () => {
    const { path, server, call, now, movedPast, advanceFiftyYears } = await served();
    const start = await now();
    const client = new AbortController();
    const advance = advanceFiftyYears(client.signal).catch((error: unknown) => error);
    await movedPast(start);
    client.abort();
    await advance;
    // The move stops at its next slice: until then a second advance is refused (409, nothing moves).
    const bound = Date.now() + 20_000;
    let next = await call('POST', '/_sim/advance', { by: '1m' });
    while (next.status === 409) {
      if (Date.now() > bound) throw new Error(`still refused: ${JSON.stringify(next.body)}`);
      next = await call('POST', '/_sim/advance', { by: '1m' });
    }
    expect(next.status).toBe(200);
    expect(server.sim.now()).toBeLessThan(start + FIFTY_YEARS_MS);
    expect(replayLogFile(path).simulation?.state).toEqual(server.sim.state);
    expect((await call('POST', '/_sim/reset', { seed: 1 })).status).toBe(200);
  });

  it('stops when the signal of its Request (in process) aborts, and says so if still heard', async () => {
    const { path, server, call, now, movedPast, advanceFiftyYears } = await served('fetch');
    const start = await now();
    const client = new AbortController();
    const advance = advanceFiftyYears(client.signal);
    await movedPast(start);
    client.abort();
    // In process the answer is still there to read: the move stopped, and where.
    const answer = (await (await advance).json()) as Record<string, unknown>;
    expect(answer).toMatchObject({ code: 'stopped', now_ms: server.sim.now() });
    expect(answer['message']).toMatch(/stopped: its client went away/);
    expect(server.sim.now()).toBeLessThan(start + FIFTY_YEARS_MS);
    expect(replayLogFile(path).simulation?.state).toEqual(server.sim.state);
    expect((await call('POST', '/_sim/advance', { by: '1m' })).status).toBe(200);
  });

  it('stops on DELETE /_sim/advance, which says where; the advance answers 409 stopped, the same', async () => {
    const { path, server, call, now, movedPast } = await served();
    const start = await now();
    const advance = call('POST', '/_sim/advance', { by: '18250d' });
    await movedPast(start);
    const stop = await call('DELETE', '/_sim/advance');
    expect(stop.status).toBe(200);
    const at = stop.body['now_ms'] as number;
    expect(at).toBeGreaterThan(start);
    expect(at).toBeLessThan(start + FIFTY_YEARS_MS);
    const answer = await advance;
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: 'stopped', now_ms: at, now: stop.body['now'] });
    expect(answer.body['message']).toMatch(/advance to .* stopped: .*the clock is at/);
    // The DELETE's answer is the clock's, as `GET /_sim/clock` gives it.
    expect((await call('GET', '/_sim/clock')).body).toEqual(stop.body);
    expect(replayLogFile(path).simulation?.state).toEqual(server.sim.state);
    expect((await call('POST', '/_sim/advance', { by: '1m' })).status).toBe(200);
  });

  it('is not there to stop: DELETE /_sim/advance with nothing moving is a 404 and nothing moves', async () => {
    const { call, now } = await served();
    const before = await now();
    const answer = await call('DELETE', '/_sim/advance');
    expect(answer.status).toBe(404);
    expect(answer.body['code']).toBe('not_found');
    expect(answer.body['message']).toMatch(/no clock move is under way/);
    expect(await now()).toBe(before);
  });
});
