/**
 * What-if study: autoscaling 0.25-2 CU against a fixed 1 CU compute, for a bursty workload (quiet
 * background sessions plus an hourly burst of heavy queries). Same seed and same sessions under each
 * setting; the compute never suspends, so the difference is the size alone.
 *
 * Run:   npm start -- compare scenarios/autoscaling-study.ts
 * Sweep: npm start -- sweep scenarios/autoscaling-study.ts --seeds 5
 */
import { type Simulation } from '../src/index.js';
import { defineStudy } from '../src/entries/studies.js';

interface Params {
  readonly minCu: number;
  readonly maxCu: number;
}

function burstyCompute(sim: Simulation, { minCu, maxCu }: Params): void {
  const created = sim.request('POST', '/projects', {
    project: {
      default_endpoint_settings: {
        autoscaling_limit_min_cu: minCu,
        autoscaling_limit_max_cu: maxCu,
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

export default defineStudy<Params>({
  name: 'autoscaling',
  description: 'one compute, light sessions plus an hourly burst of heavy ones',
  seed: 7,
  start: '2026-01-05T00:00:00Z',
  duration: '1d',
  configurations: [
    { name: 'fixed 1 CU', params: { minCu: 1, maxCu: 1 } },
    { name: 'autoscaling 0.25-2 CU', params: { minCu: 0.25, maxCu: 2 } },
  ],
  grid: { minCu: [0.25, 0.5, 1], maxCu: [1, 2, 4] },
  setup: (sim, configuration) => burstyCompute(sim, configuration.params as Params),
});
