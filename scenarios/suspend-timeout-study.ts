/**
 * What-if study: how much would 40 office-hours projects burn, and how many cold starts would their
 * users feel, with a scale-to-zero timeout of 60 s, 300 s (the default) or never? Same seed and
 * same sessions under each setting (common random numbers), one simulated week.
 *
 * Run:   npm start -- compare scenarios/suspend-timeout-study.ts
 * Sweep: npm start -- sweep scenarios/suspend-timeout-study.ts --seeds 5
 */
import { officeHours, type Simulation } from '../src/index.js';
import { defineStudy } from '../src/entries/studies.js';

interface Params {
  /** Seconds of inactivity before scale to zero (-1: never). */
  readonly suspendTimeout: number;
  readonly projects: number;
}

function officeFleet(sim: Simulation, { suspendTimeout, projects }: Params): void {
  const rates = officeHours({ peak: 6, offPeak: 0.5 });
  for (let i = 0; i < projects; i++) {
    const created = sim.request('POST', '/projects', {
      project: {
        default_endpoint_settings: {
          autoscaling_limit_min_cu: 0.25,
          autoscaling_limit_max_cu: 2,
          suspend_timeout_seconds: suspendTimeout,
        },
      },
    });
    sim.addWorkload({
      kind: 'poisson',
      endpointId: created.body.endpoints[0].id,
      rates,
      session: {
        duration: { dist: 'exponential', mean: '2m' },
        cpu: { dist: 'uniform', min: 0.05, max: 0.6 },
      },
    });
  }
}

export default defineStudy<Params>({
  name: 'suspend-timeout',
  description: '40 office-hours projects under different scale-to-zero timeouts',
  seed: 2026,
  start: '2026-01-05T00:00:00Z',
  duration: '7d',
  configurations: [
    { name: 'timeout 300 s', params: { suspendTimeout: 300, projects: 40 } },
    { name: 'timeout 60 s', params: { suspendTimeout: 60, projects: 40 } },
    { name: 'never suspend', params: { suspendTimeout: -1, projects: 40 } },
  ],
  grid: { suspendTimeout: [60, 120, 300, 600, 1800, -1] },
  // How the sweep report reads it: seconds, and -1 is "never" (a name, not a place on the scale).
  paramLabels: { suspendTimeout: { unit: 's', values: { '-1': 'never' } } },
  setup: (sim, configuration) => officeFleet(sim, configuration.params as Params),
});
