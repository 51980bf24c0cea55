/**
 * fast-check arbitraries for timelines. Shrinking understands time: a failing timeline shrinks
 * toward fewer steps (each step alone first, then the step list shrinks), shorter gaps (gaps shrink
 * toward 0), simpler actions (toward creating a project) and fewer faults (every fault part is
 * optional).
 */
import fc from 'fast-check';
import type { FaultProfile } from '../faultProfile.js';
import { attachTimelineString } from '../timeline/formatTimeline.js';
import type { Timeline, TimelineAction, TimelineStep } from '../timeline/timeline.js';
import { autoscalingRange, suspendTimeoutSeconds } from './computeArbitraries.js';
import { eachItemAlone } from './eachItemAlone.js';
import { faultProfile } from './faultArbitraries.js';

/** Limits of generated timelines. */
export interface TimelineConstraints {
  /** Fewest steps. Default 0. */
  readonly minSteps?: number;
  /** Most steps. Default 20. */
  readonly maxSteps?: number;
  /** Longest gap between steps, ms. Default 10 minutes. */
  readonly maxGapMs?: number;
  /** Faults to draw from; default `faultProfile()`, `fc.constant({})` for none. */
  readonly faults?: fc.Arbitrary<FaultProfile>;
  /** Actions to draw from; default `timelineAction()` (every kind). */
  readonly actions?: fc.Arbitrary<TimelineAction>;
}

const index = fc.nat({ max: 7 });

/** One action; the first alternatives are the simplest (shrinking goes toward them). */
export function timelineAction(): fc.Arbitrary<TimelineAction> {
  return fc.oneof(
    fc.constant({ kind: 'createProject' as const }),
    fc.record({
      kind: fc.constant('connect' as const),
      compute: index,
      holdMs: fc.nat({ max: 600_000 }),
    }),
    fc.record({
      kind: fc.constantFrom('restart' as const, 'suspend' as const, 'start' as const),
      compute: index,
    }),
    fc.record({
      kind: fc.constant('createBranch' as const),
      project: index,
      withCompute: fc.boolean(),
    }),
    fc.record({
      kind: fc.constantFrom('createReplica' as const, 'createPrimary' as const),
      branch: index,
    }),
    autoscalingRange().chain(({ minCu, maxCu }) =>
      fc.record({
        kind: fc.constant('resize' as const),
        compute: index,
        minCu: fc.constant(minCu),
        maxCu: fc.constant(maxCu),
      }),
    ),
    fc.record({
      kind: fc.constant('setSuspendTimeout' as const),
      compute: index,
      seconds: suspendTimeoutSeconds(),
    }),
    fc.record({ kind: fc.constant('dropConnections' as const), compute: index }),
    fc.record({ kind: fc.constant('deleteCompute' as const), compute: index }),
    fc.record({ kind: fc.constant('deleteBranch' as const), branch: index }),
    fc.record({ kind: fc.constant('createRole' as const), branch: index, role: index }),
    fc.record({ kind: fc.constant('createDatabase' as const), branch: index, database: index }),
  );
}

/** Steps of a timeline: gaps shrink toward 0, the list toward each step alone, then toward empty. */
export function timelineSteps(constraints: TimelineConstraints = {}): fc.Arbitrary<TimelineStep[]> {
  const step = fc.record({
    gapMs: fc.nat({ max: constraints.maxGapMs ?? 600_000 }),
    action: constraints.actions ?? timelineAction(),
  });
  const maxLength = constraints.maxSteps ?? 20;
  return eachItemAlone(step, {
    minLength: Math.min(constraints.minSteps ?? 0, maxLength),
    maxLength,
  });
}

/**
 * A whole timeline: seed, faults and steps. Its string form (what fast-check prints for a
 * counterexample) is the readable timeline with a scenario to paste (`formatTimeline`).
 */
export function timeline(constraints: TimelineConstraints = {}): fc.Arbitrary<Timeline> {
  return fc
    .record({
      seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
      faults: constraints.faults ?? faultProfile(),
      steps: timelineSteps(constraints),
    })
    .map(attachTimelineString);
}
