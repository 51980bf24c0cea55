/**
 * fast-check arbitrary for fault profiles. It shrinks toward fewer faults: every part is optional
 * and rates shrink toward 0.
 *
 * Two presets. `honest` (the default) draws only faults a careful client survives: operation
 * failures the control plane always recovers from (`failed`, retried, then finished: never
 * `error`), operations slow to start (up to a minute), 423 bursts of at most three, 429s with
 * `Retry-After` up to 10 s, 503s, dropped connections; no request meets more than three injected
 * faults in a row. A client that waits for its operations, polls every 5 s, and retries each
 * refusal at least three times with backoff (honouring `Retry-After`) gets its job done in every
 * run, so a property may assert that it did. `harsh` adds what a careful client reports rather than
 * survives: operations that end in `error`, operations stuck for days, longer bursts, higher rates.
 */
import fc from 'fast-check';
import type { FaultSpec } from '../../domain/profile.js';
import type { FaultProfile } from '../faultProfile.js';
import { DAY_MS } from '../../core/duration.js';

const rate = (max: number) =>
  fc.integer({ min: 0, max: Math.round(max * 100) }).map((n) => n / 100);

/** How hard the drawn faults are (see the file's header). */
export type FaultPreset = 'honest' | 'harsh';

function operationFault(preset: FaultPreset): fc.Arbitrary<FaultSpec> {
  const harsh = preset === 'harsh';
  return fc
    .record({
      failureRate: rate(harsh ? 0.8 : 0.5),
      maxRetries: fc.integer({ min: 0, max: 3 }),
      retryDelayMs: fc.integer({ min: 0, max: 30_000 }),
      delay: fc.option(
        fc.record({
          delayRate: rate(0.5),
          // Harsh: stuck for up to three days (longer than a run's day).
          delayMs: fc.integer({ min: 1_000, max: harsh ? 3 * DAY_MS : 60_000 }),
        }),
        { nil: undefined },
      ),
    })
    .map(({ delay, ...spec }) => ({
      ...spec,
      ...(harsh ? {} : { endsInError: false }),
      ...(delay === undefined
        ? {}
        : { delayRate: delay.delayRate, delayMs: [delay.delayMs, delay.delayMs] as const }),
    }));
}

/** Options of `faultProfile`: which parts to draw (all by default), and how hard. */
export interface FaultProfileConstraints {
  readonly operations?: boolean;
  readonly requests?: boolean;
  readonly connections?: boolean;
  /** `honest` (default): faults a careful client survives; `harsh`: also those it must report. */
  readonly preset?: FaultPreset;
}

/** A fault profile: operation faults, 423 bursts, 429s and 503s, connection drops. */
export function faultProfile(
  constraints: FaultProfileConstraints = {},
): fc.Arbitrary<FaultProfile> {
  const preset = constraints.preset ?? 'honest';
  const harsh = preset === 'harsh';
  const parts: Record<string, fc.Arbitrary<unknown>> = {};
  if (constraints.operations !== false)
    parts['operations'] = fc.record(
      {
        start_compute: operationFault(preset),
        wake_compute: operationFault(preset),
        suspend_compute: operationFault(preset),
        apply_config: operationFault(preset),
        create_branch: operationFault(preset),
      },
      { requiredKeys: [] },
    );
  if (constraints.requests !== false)
    parts['requests'] = fc
      .record(
        {
          locked: fc.record({
            rate: rate(harsh ? 0.8 : 0.5),
            burst: fc
              .tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: harsh ? 5 : 2 }))
              .map(([min, extra]) => [min, Math.min(harsh ? 8 : 3, min + extra)] as const),
          }),
          rateLimited: fc.record({
            rate: rate(harsh ? 0.6 : 0.3),
            retryAfterSeconds: fc.integer({ min: 0, max: harsh ? 60 : 10 }),
          }),
          unavailable: fc
            .record({
              rate: rate(harsh ? 0.5 : 0.2),
              retryAfterSeconds: fc.option(fc.integer({ min: 0, max: 5 })),
            })
            .map(({ rate: r, retryAfterSeconds }) =>
              retryAfterSeconds === null ? { rate: r } : { rate: r, retryAfterSeconds },
            ),
        },
        { requiredKeys: [] },
      )
      .map((requests) => (harsh ? { ...requests, maxInARow: 8 } : requests));
  if (constraints.connections !== false)
    parts['connections'] = fc.record({ dropsPerHour: fc.integer({ min: 0, max: 60 }) });
  return fc.record(parts, { requiredKeys: [] });
}
