/**
 * Operation failures, retries and 423: with a fault profile where start_compute fails twice before
 * it succeeds, the start operation goes failed → retried at retry_at → finished, and clients wait
 * through it. While it is unfinished, a change to the compute is refused with 423 (locked), which
 * a client should retry later.
 *
 * Run: npm start -- run scenarios/failures-and-retries.ts
 */
import { defineScenario } from '../src/index.js';

export default defineScenario({
  name: 'failures-and-retries',
  description: 'a start that fails and is retried; a 423 while it runs',
  seed: 7,
  start: '2026-01-05T09:00:00Z',
  profile: { faults: { start_compute: { failureRate: 0.7, maxRetries: 5, retryDelayMs: 15_000 } } },
  script(s) {
    const { project, endpoints, operations } = s.request('POST', '/projects', {
      project: { name: 'flaky' },
    }).body;
    const endpointId: string = endpoints[0].id;
    const path = `/projects/${project.id}/endpoints/${endpointId}`;

    s.at('+5s', () => {
      const locked = s.request('PATCH', path, { endpoint: { suspend_timeout_seconds: 600 } });
      s.expect('a change while start_compute is unfinished', locked.status, 423);
      s.note('423 is safe to retry: nothing changed');
    });
    s.waitFor(operations, (done) => {
      s.expect(
        'operations, finally',
        done.map((o) => `${o.action}=${o.status}`),
        ['create_timeline=finished', 'start_compute=finished'],
      );
      const start = s.request('GET', `/projects/${project.id}/operations/${done[1]!.id}`).body
        .operation;
      s.note(`start_compute failed ${start.failures_count} time(s) before it finished`);
      s.expect('failed attempts of start_compute', start.failures_count, (n: number) => n > 0);
      s.expect(
        'a change now',
        s.request('PATCH', path, { endpoint: { suspend_timeout_seconds: 600 } }).status,
        200,
      );
    });
  },
});
