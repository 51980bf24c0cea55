/**
 * What-if study: autoscaling 0.25-2 CU against a fixed 1 CU compute, for a bursty workload (quiet
 * background sessions plus an hourly burst of heavy queries). Same seed and same sessions under each
 * setting; the compute never suspends, so the difference is the size alone.
 *
 * Run: npx tsx scenarios/autoscaling-study.ts
 */
import { compare, comparisonTable, type Simulation } from '../src/index.js';

function burstyCompute(sim: Simulation, size: { min: number; max: number }): void {
  const created = sim.request('POST', '/projects', {
    project: {
      default_endpoint_settings: {
        autoscaling_limit_min_cu: size.min,
        autoscaling_limit_max_cu: size.max,
        suspend_timeout_seconds: -1,
      },
    },
  });
  const endpointId: string = created.body.endpoints[0].id;
  sim.addWorkload({
    kind: 'poisson',
    endpointId,
    rates: 20,
    session: { duration: { dist: 'exponential', mean: '1m' }, cpu: 0.1 },
  });
  for (let hour = 0; hour < 24; hour++)
    sim.addWorkload({
      kind: 'burst',
      endpointId,
      after: `${hour}h`,
      count: 12,
      within: '2m',
      session: { duration: { dist: 'uniform', min: '1m', max: '4m' }, cpu: 0.35 },
    });
}

const comparison = compare(
  {
    seed: 7,
    start: '2026-01-05T00:00:00Z',
    duration: '1d',
    setup: (sim, configuration) => burstyCompute(sim, configuration.params ?? { min: 1, max: 1 }),
  },
  [
    { name: 'fixed 1 CU', params: { min: 1, max: 1 } },
    { name: 'autoscaling 0.25-2 CU', params: { min: 0.25, max: 2 } },
  ],
);
console.log('one compute, steady light sessions plus an hourly burst of heavy ones, one day\n');
console.log(comparisonTable(comparison));
