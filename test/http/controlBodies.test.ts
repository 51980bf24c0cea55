/**
 * The control routes' bodies, each declared once with zod (service/controlBody.ts): what a route
 * takes is parsed before it acts, and anything else is a 400 naming the field, with nothing changed.
 */
import { describe, expect, it } from 'vitest';
import { serveOver } from '../support/transports.js';

describe('control route bodies', () => {
  it.each([
    ['/_sim/advance', { by: 'soon' }, /^by: Invalid duration "soon"/],
    ['/_sim/advance', {}, /^by is required$/],
    ['/_sim/advance', { by: true }, /^by must be a duration such as '5m', or milliseconds$/],
    ['/_sim/advance', { by: '5m', extra: 1 }, /^unknown field "extra" \(expected "by"\)$/],
    ['/_sim/clock', { mode: 'fast' }, /^mode: clock must be manual, realtime or a speed like 60x/],
    ['/_sim/clock', { mode: 60 }, /^mode must be a string$/],
    ['/_sim/run_until_idle', { within: '-1s' }, /^within: Invalid duration "-1s"/],
    ['/_sim/step', { by: '5m' }, /^unknown field "by" \(this route takes no body\)$/],
    ['/_sim/connections', {}, /^endpoint_id is required$/],
    ['/_sim/connections', { endpoint_id: '' }, /^endpoint_id must be a compute id/],
    ['/_sim/connections', { endpoint_id: 'ep-x', pooled: 'yes' }, /^pooled must be true or false$/],
    ['/_sim/reset', { seed: 1.5 }, /^seed must be a whole number$/],
    ['/_sim/reset', { jsonl: 7 }, /^jsonl must be a JSON Lines log$/],
    [
      '/_sim/reset',
      null,
      /^the body must be a JSON object with "seed", "jsonl", or empty, got null$/,
    ],
    ['/_sim/reset', [], /got an array$/],
  ])('POST %s with %j is a 400: %s', async (path, body, message) => {
    const { call, server } = await serveOver('fetch');
    const before = server.sim.now();
    const answer = await call('POST', path, body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(message),
    });
    expect(server.sim.now()).toBe(before);
  });

  it('takes what each route declares: durations as text or milliseconds, no body as {}', async () => {
    const { call, server } = await serveOver('fetch');
    const start = server.sim.now();
    expect((await call('POST', '/_sim/advance', { by: '1m' })).body.now_ms).toBe(start + 60_000);
    expect((await call('POST', '/_sim/advance', { by: 30_000 })).body.now_ms).toBe(start + 90_000);
    expect((await call('POST', '/_sim/run_until_idle')).status).toBe(200);
    expect((await call('POST', '/_sim/run_until_idle', { within: '1h' })).status).toBe(200);
    expect((await call('POST', '/_sim/step', {})).status).toBe(200);
  });
});
