/**
 * fast-check arbitrary for workloads attached to a compute: Poisson sessions, cron jobs, long-held
 * workers and bursts, with small, valid parameters.
 */
import fc from 'fast-check';
import type { WorkloadInput } from '../../workload/workloadSpec.js';

/** A workload on `endpointId`. */
export function workload(endpointId: string): fc.Arbitrary<WorkloadInput> {
  const session = fc.record({
    duration: fc.integer({ min: 1, max: 600 }).map((s) => `${s}s`),
    cpu: fc.integer({ min: 1, max: 200 }).map((n) => n / 100),
  });
  return fc.oneof(
    fc.record({
      kind: fc.constant('poisson' as const),
      endpointId: fc.constant(endpointId),
      rates: fc.integer({ min: 1, max: 30 }),
      session,
    }),
    fc.record({
      kind: fc.constant('cron' as const),
      endpointId: fc.constant(endpointId),
      every: fc.integer({ min: 1, max: 60 }).map((m) => `${m}m`),
      session,
    }),
    fc.record({
      kind: fc.constant('worker' as const),
      endpointId: fc.constant(endpointId),
      connections: fc.integer({ min: 1, max: 5 }),
      cpu: fc.integer({ min: 1, max: 100 }).map((n) => n / 100),
    }),
    fc.record({
      kind: fc.constant('burst' as const),
      endpointId: fc.constant(endpointId),
      count: fc.integer({ min: 1, max: 50 }),
      within: fc.integer({ min: 1, max: 120 }).map((s) => `${s}s`),
      session,
    }),
  );
}
