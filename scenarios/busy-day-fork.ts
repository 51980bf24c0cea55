/**
 * What if the suspend timeout had been one minute from noon on? A busy Tuesday of eight office
 * projects (sessions all day, most of them in office hours) runs with the default 5-minute timeout;
 * at the end of the day the script forks the run at noon with a 60-second timeout. The morning is
 * the same in both, the same sessions arrive in the afternoon, and the fork pays for fewer CU-hours
 * with more cold starts.
 *
 * Run:  npm start -- run scenarios/busy-day-fork.ts --log busy-day.jsonl
 * Fork: npm start -- replay busy-day.jsonl --fork-at 2026-01-06T12:00Z --set suspendTimeout=60
 */
import { defineScenario, officeHours, type SimEvent } from '../src/index.js';
import { compareFork } from '../src/entries/studies.js';

const NOON = '2026-01-06T12:00:00Z';

export default defineScenario({
  name: 'busy-day-fork',
  description: 'a busy day forked at noon with a 60 s suspend timeout: same users, fewer CU-hours',
  seed: 7,
  start: '2026-01-06T00:00:00Z',
  duration: '24h',
  script(s) {
    const rates = officeHours({ peak: 8, offPeak: 0.5 });
    for (let i = 1; i <= 8; i++) {
      const { endpoints } = s.request('POST', '/projects', {
        project: { name: `office-${i}` },
      }).body;
      s.workload({
        kind: 'poisson',
        endpointId: endpoints[0].id,
        rates,
        session: { duration: { dist: 'exponential', mean: '2m' } },
      });
    }
    s.at('24h', () => {
      const { fork, comparison } = compareFork(s.sim, NOON, {
        profile: { defaultSuspendTimeoutSeconds: 60 },
      });
      const [asRun, forked] = comparison.rows.map((row) => row.fleet);
      if (asRun === undefined || forked === undefined) throw new Error('no comparison');
      const noon = Date.parse(NOON);
      const cut = s.sim.log.firstAfter(noon);
      s.expect(
        'the fork keeps the morning as it was, event for event',
        fork.log.slice(0, cut).map((e) => JSON.stringify(e)),
        s.sim.log.slice(0, cut).map((e) => JSON.stringify(e)),
      );
      const arrivals = (log: Iterable<SimEvent>) =>
        [...log]
          .filter((e) => e.type === 'SessionArrived' && e.at > noon)
          .map((e) => (e.type === 'SessionArrived' ? `${e.workloadId}#${e.index}@${e.at}` : ''));
      s.expect(
        'the same sessions arrive in the afternoon',
        arrivals(fork.log),
        arrivals(s.sim.log),
      );
      s.expect('sessions after noon, both futures', forked.sessions, asRun.sessions);
      s.expect('CU-hours after noon: the fork pays less', forked.cuHours, (h) => h < asRun.cuHours);
      s.expect(
        'suspends after noon: the fork suspends more',
        forked.suspends,
        (n) => n > asRun.suspends,
      );
      s.expect(
        'cold starts felt: more in the fork',
        forked.coldStarts,
        (n) => n > asRun.coldStarts,
      );
      s.note(
        `after noon: ${asRun.cuHours.toFixed(2)} → ${forked.cuHours.toFixed(2)} CU-hours, ` +
          `${asRun.coldStarts} → ${forked.coldStarts} cold starts felt`,
      );
    });
  },
});
