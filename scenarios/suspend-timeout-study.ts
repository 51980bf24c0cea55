/**
 * What-if study: how much would 40 office-hours projects burn, and how many cold starts would their
 * users feel, with a scale-to-zero timeout of 60 s, 300 s (the default) or never? Same seed and
 * same sessions under each setting (common random numbers), one simulated week.
 *
 * Run: npx tsx scenarios/suspend-timeout-study.ts
 */
import { compare, comparisonTable, officeHours, type Simulation } from '../src/index.js';

const PROJECTS = 40;

function officeFleet(sim: Simulation, suspendTimeoutSeconds: number): void {
  const rates = officeHours({ peak: 6, offPeak: 0.5 });
  for (let i = 0; i < PROJECTS; i++) {
    const created = sim.request('POST', '/projects', {
      project: {
        default_endpoint_settings: {
          autoscaling_limit_min_cu: 0.25,
          autoscaling_limit_max_cu: 2,
          suspend_timeout_seconds: suspendTimeoutSeconds,
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

const comparison = compare(
  {
    seed: 2026,
    start: '2026-01-05T00:00:00Z',
    duration: '7d',
    setup: (sim, configuration) => officeFleet(sim, configuration.params ?? 300),
  },
  [
    { name: 'timeout 300 s', params: 300 },
    { name: 'timeout 60 s', params: 60 },
    { name: 'never suspend', params: -1 },
  ],
);
console.log(
  `${PROJECTS} projects, office-hours traffic, one week, same sessions under each setting\n`,
);
console.log(comparisonTable(comparison));
