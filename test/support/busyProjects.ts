/**
 * Busy projects for tests of long runs: each with one autoscaling compute (0.25-4 CU), Poisson
 * office-hours sessions heavy enough to resize it, and on every third a cron job, so a few hours
 * give every kind of event a fleet logs (wake-ups, resizes, suspends, connections).
 */
import { officeHours, type Simulation } from '../../src/index.js';

/** Adds `count` busy projects to `sim`; returns their computes' ids. */
export function addBusyProjects(sim: Simulation, count: number): string[] {
  const endpointIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = sim.request('POST', '/projects', {
      project: {
        default_endpoint_settings: { autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 4 },
      },
    });
    const endpointId = created.body.endpoints[0].id as string;
    sim.addWorkload({
      kind: 'poisson',
      endpointId,
      rates: officeHours({ peak: 30, offPeak: 3 }),
      session: {
        duration: { dist: 'exponential', mean: '3m' },
        cpu: { dist: 'uniform', min: 0.1, max: 3 },
      },
    });
    if (i % 3 === 0)
      sim.addWorkload({ kind: 'cron', endpointId, every: '10m', session: { duration: '1m' } });
    endpointIds.push(endpointId);
  }
  return endpointIds;
}
