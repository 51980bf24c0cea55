/**
 * fast-check arbitrary for fault profiles. It shrinks toward fewer faults: every part is optional
 * and rates shrink toward 0.
 */
import fc from 'fast-check';
import type { FaultSpec } from '../../domain/profile.js';
import type { FaultProfile } from '../faultProfile.js';

const rate = (max: number) =>
  fc.integer({ min: 0, max: Math.round(max * 100) }).map((n) => n / 100);

function operationFault(): fc.Arbitrary<FaultSpec> {
  return fc
    .record({
      failureRate: rate(0.5),
      maxRetries: fc.integer({ min: 0, max: 3 }),
      retryDelayMs: fc.integer({ min: 0, max: 30_000 }),
      delay: fc.option(
        fc.record({ delayRate: rate(0.5), delayMs: fc.integer({ min: 1_000, max: 60_000 }) }),
        { nil: undefined },
      ),
    })
    .map(({ delay, ...spec }) =>
      delay === undefined
        ? spec
        : { ...spec, delayRate: delay.delayRate, delayMs: [delay.delayMs, delay.delayMs] as const },
    );
}

/** Options of `faultProfile`: which parts to draw (all by default). */
export interface FaultProfileConstraints {
  readonly operations?: boolean;
  readonly requests?: boolean;
  readonly connections?: boolean;
}

/** A fault profile: operation faults, 423 bursts, 429s and 503s, connection drops. */
export function faultProfile(
  constraints: FaultProfileConstraints = {},
): fc.Arbitrary<FaultProfile> {
  const parts: Record<string, fc.Arbitrary<unknown>> = {};
  if (constraints.operations !== false)
    parts['operations'] = fc.record(
      {
        start_compute: operationFault(),
        wake_compute: operationFault(),
        suspend_compute: operationFault(),
        apply_config: operationFault(),
        create_branch: operationFault(),
      },
      { requiredKeys: [] },
    );
  if (constraints.requests !== false)
    parts['requests'] = fc.record(
      {
        locked: fc.record({
          rate: rate(0.5),
          burst: fc
            .tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 3 }))
            .map(([min, extra]) => [min, min + extra] as const),
        }),
        rateLimited: fc.record({
          rate: rate(0.3),
          retryAfterSeconds: fc.integer({ min: 0, max: 10 }),
        }),
        unavailable: fc
          .record({ rate: rate(0.2), retryAfterSeconds: fc.option(fc.integer({ min: 0, max: 5 })) })
          .map(({ rate: r, retryAfterSeconds }) =>
            retryAfterSeconds === null ? { rate: r } : { rate: r, retryAfterSeconds },
          ),
      },
      { requiredKeys: [] },
    );
  if (constraints.connections !== false)
    parts['connections'] = fc.record({ dropsPerHour: fc.integer({ min: 0, max: 60 }) });
  return fc.record(parts, { requiredKeys: [] });
}
