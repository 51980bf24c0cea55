/**
 * The control routes the dashboard's buttons use, as any client calls them: the clock's speed
 * (`POST /_sim/clock`), one step to the next due work (`POST /_sim/step`), and the core telling an
 * observer of each request it answered.
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { HttpCore, type AnsweredRequest } from '../../src/service/httpCore.js';
import { serveOver } from '../support/transports.js';

describe('clock controls', () => {
  it('changes the clock speed, pausing a paced clock with manual', async () => {
    let wall = 1_000_000;
    const { call, server } = await serveOver('fetch', {
      clock: { name: '60x', rate: 60 },
      wallNow: () => wall,
    });
    const start = server.sim.now();
    wall += 1_000;
    expect((await call('GET', '/_sim/clock')).body).toMatchObject({
      now_ms: start + 60_000,
      mode: '60x',
    });
    const paused = await call('POST', '/_sim/clock', { mode: 'manual' });
    expect(paused.status).toBe(200);
    expect(paused.body.mode).toBe('manual');
    wall += 10_000;
    expect((await call('GET', '/_sim/clock')).body.now_ms).toBe(start + 60_000);
    expect((await call('POST', '/_sim/clock', { mode: 'realtime' })).body.mode).toBe('realtime');
    wall += 2_000;
    expect((await call('GET', '/_sim/clock')).body.now_ms).toBe(start + 62_000);
  });

  it('refuses a speed it does not know, or a field it does not take, and nothing changes', async () => {
    const { call } = await serveOver('fetch');
    for (const body of [{ mode: 'fast' }, { mode: 60 }, {}, { mode: 'manual', extra: 1 }]) {
      const answer = await call('POST', '/_sim/clock', body);
      expect(answer.status).toBe(400);
      expect(typeof answer.body.message).toBe('string');
    }
    expect((await call('GET', '/_sim/clock')).body.mode).toBe('manual');
  });

  it('refuses a paced clock where there is no wall clock to follow (in process)', async () => {
    const core = new HttpCore(new Simulation({ seed: 1 }));
    const answer = await core.fetch(
      new Request('http://x/api/v2/_sim/clock', {
        method: 'POST',
        body: JSON.stringify({ mode: '60x' }),
      }),
    );
    expect(answer.status).toBe(400);
  });

  it('steps to the instant the next work is due, and stays put when nothing is', async () => {
    const { call, server } = await serveOver('fetch', {}, new Simulation({ seed: 3 }));
    const start = server.sim.now();
    await call('POST', '/projects', { project: { name: 'step' } });
    const due = server.sim.pending.nextDue;
    expect(due).toBeGreaterThan(start);
    const stepped = await call('POST', '/_sim/step');
    expect(stepped.status).toBe(200);
    expect(stepped.body.now_ms).toBe(due);
    expect(server.sim.pending.nextDue).toBeGreaterThan(due);

    const empty = await serveOver('fetch', {}, new Simulation({ seed: 4 }));
    const before = empty.server.sim.now();
    // A fresh simulation may hold background timers: step at most reaches the first of them.
    const next = empty.server.sim.pending.nextDue;
    const answer = await empty.call('POST', '/_sim/step');
    expect(answer.body.now_ms).toBe(Number.isFinite(next) ? next : before);
  });

  it('tells an observer of each answered request, with where it falls in the log', async () => {
    const seen: AnsweredRequest[] = [];
    const { call, server } = await serveOver('fetch', { onAnswered: (r) => seen.push(r) });
    await call('POST', '/projects', { project: { name: 'seen' } });
    await call('GET', '/nowhere');
    await call('POST', '/_sim/advance', { by: '1m' });
    expect(seen.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /projects 201',
      'GET /nowhere 404',
      'POST /_sim/advance 200',
    ]);
    expect(seen[0]?.position).toBeGreaterThan(1);
    expect(seen[2]?.position).toBe(server.sim.log.length);
    expect(seen[2]?.at).toBe(server.sim.now());
  });

  it('answers as usual when the observer throws', async () => {
    const errors: unknown[] = [];
    const { call } = await serveOver('fetch', {
      onAnswered: () => {
        throw new Error('observer broke');
      },
      onInternalError: (error) => errors.push(error),
    });
    expect((await call('GET', '/_sim/clock')).status).toBe(200);
    expect(errors).toHaveLength(1);
  });
});
