/**
 * A fleet for scale-out: 1,000 office-hours projects (autoscaling 0.25-2 CU, default suspend timeout,
 * 6 sessions/h 08-18 on weekdays, 0.5/h otherwise, a cron job every 15 min on one in ten) for 30 days,
 * each project in a simulation of its own so any range of them runs anywhere.
 *
 * Run: npm start -- fleet scenarios/office-fleet.ts --threads 2 --duration 1d
 */
import { officeHours } from '../src/index.js';
import { defineFleet } from '../src/entries/studies.js';

export default defineFleet({
  name: 'office-fleet',
  description: 'office-hours projects, autoscaling 0.25-2 CU, a cron job on one in ten',
  seed: 42,
  start: '2026-01-05T00:00:00Z',
  duration: '30d',
  projects: Number(process.env['FLEET_PROJECTS'] ?? 1_000),
  project: (sim, index) => {
    const created = sim.request('POST', '/projects', {
      project: {
        default_endpoint_settings: { autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 2 },
      },
    });
    const endpointId: string = created.body.endpoints[0].id;
    sim.addWorkload({
      kind: 'poisson',
      endpointId,
      rates: officeHours({ peak: 6, offPeak: 0.5 }),
      session: {
        duration: { dist: 'exponential', mean: '2m' },
        cpu: { dist: 'uniform', min: 0.05, max: 0.6 },
      },
    });
    if (index % 10 === 0)
      sim.addWorkload({
        kind: 'cron',
        endpointId,
        every: '15m',
        session: { duration: '30s', cpu: 0.3 },
      });
  },
});
