/**
 * A cron job that keeps a compute awake: a job every 4 minutes never leaves the compute idle for
 * the 5-minute suspend timeout, so it never scales to zero and bills around the clock. The same
 * job every 10 minutes lets it suspend between runs, at the price of a cold start per run.
 *
 * Run: npm start -- run scenarios/cron-keeps-awake.ts
 */
import { defineScenario } from '../src/index.js';

export default defineScenario({
  name: 'cron-keeps-awake',
  description: 'a job every 4 minutes keeps a compute up; every 10 minutes lets it sleep',
  seed: 5,
  start: '2026-01-05T09:00:00Z',
  duration: '1h',
  script(s) {
    const every4 = s.request('POST', '/projects', { project: { name: 'every-4m' } }).body;
    const every10 = s.request('POST', '/projects', { project: { name: 'every-10m' } }).body;
    const frequent: string = every4.endpoints[0].id;
    const sparse: string = every10.endpoints[0].id;
    s.workload({ kind: 'cron', endpointId: frequent, every: '4m', session: { duration: '20s' } });
    s.workload({ kind: 'cron', endpointId: sparse, every: '10m', session: { duration: '20s' } });
    s.note('two projects: a 20-second job every 4 minutes on one, every 10 minutes on the other');

    s.at('+1h', () => {
      const lifecycle = (id: string) => s.lifecycle(id, { unit: '2m', slots: 30 });
      s.note(`every 4 min,  2 min a character: ${lifecycle(frequent)}`);
      s.note(`every 10 min, 2 min a character: ${lifecycle(sparse)}`);
      s.expect('suspends of the every-4-minutes compute', countOf(lifecycle(frequent), 'z'), 0);
      s.expect(
        'suspends of the every-10-minutes compute',
        countOf(lifecycle(sparse), 'z'),
        (n: number) => n >= 5,
      );
    });
  },
});

function countOf(text: string, char: string): number {
  return [...text].filter((c) => c === char).length;
}
