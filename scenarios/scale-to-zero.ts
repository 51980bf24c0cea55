/**
 * Scale to zero and wake-up latency: a compute with the default 5-minute suspend timeout and a
 * client every few minutes, then a long pause. While clients come more often than every five
 * minutes the compute stays up; after the pause it suspends, and the next client waits for a cold
 * start (the wait is the start_compute operation's latency). The clients run no statement: the idle
 * clock restarts at each login, and an idle connection does not keep the compute up.
 *
 * Run: npm start -- run scenarios/scale-to-zero.ts
 */
import { defineScenario } from '../src/index.js';

export default defineScenario({
  name: 'scale-to-zero',
  description: 'idle for 5 minutes, the compute suspends; the next client waits for it to start',
  seed: 3,
  start: '2026-01-05T09:00:00Z',
  script(s) {
    const { endpoints, operations } = s.request('POST', '/projects', {
      project: { name: 'scale-to-zero' },
    }).body;
    const endpointId: string = endpoints[0].id;

    s.waitFor(operations, () => {
      s.note('clients at minutes 0, 3 and 6 (30 s each), then nobody for a while');
      s.connections(endpointId, 'c--c--c', { unit: '1m', hold: '30s' });
      s.at('+12m', () => {
        s.expect(
          'lifecycle so far, one character a minute',
          s.lifecycle(endpointId, { slots: 12 }),
          'S==c==c====z',
        );
        s.note('five minutes after the last client logged in, the compute scaled to zero');
      });
      s.at('+20m', () => {
        const late = s.connect(endpointId);
        s.expect('the late client, at first', late.state, 'connecting');
        s.at('+5s', () => {
          s.expect('the late client, 5 s later', late.state, 'open');
          const record = s.state.connections[late.id];
          const waitedMs = (record?.openedAt ?? 0) - (record?.requestedAt ?? 0);
          s.expect('its wait for the cold start (ms)', waitedMs, (ms: number) => ms > 0);
          s.note(`the cold start cost that client ${waitedMs} ms`);
        });
      });
    });
  },
});
