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
  ) as fc.Arbitrary<TimelineAction>;
}

/** Steps of a timeline: gaps shrink toward 0, the list toward empty. */
export function timelineSteps(constraints: TimelineConstraints = {}): fc.Arbitrary<TimelineStep[]> {
  const step = fc.record({
    gapMs: fc.nat({ max: constraints.maxGapMs ?? 600_000 }),
    action: constraints.actions ?? timelineAction(),
  });
  const maxLength = constraints.maxSteps ?? 20;
  const minLength = Math.min(constraints.minSteps ?? 0, maxLength);
  const steps = fc.array(step, { minLength, maxLength });
  return minLength <= 1 ? new EachStepAlone(steps) : steps;
}

/** Longest step list whose steps are each tried alone when it shrinks. */
const MOST_TRIED_ALONE = 8;

/** Where `EachStepAlone` keeps the list's own shrink context and the length it tried steps alone at. */
interface AloneContext {
  readonly inner: unknown;
  readonly triedAt: number;
}

function isAloneContext(context: unknown): context is AloneContext {
  return typeof context === 'object' && context !== null && 'triedAt' in context;
}

/**
 * A step list that, when it shrinks, first tries each of its steps alone (for lists of at most
 * `MOST_TRIED_ALONE` steps, once per length), then fast-check's own candidates. fast-check shrinks a
 * list toward shorter suffixes and one step fewer at a time, and remembers what passed; in a timeline
 * a step's effect depends on the ones before it (removing one moves the later ones earlier, and can
 * free a lock they met), so that alone could stop at a few steps none of which can go one at a time,
 * though one of them fails alone: 17 of 2,000 seeds of a faulty client in the examples ended at 3-4
 * steps where 1 sufficed.
 */
class EachStepAlone extends fc.Arbitrary<TimelineStep[]> {
  readonly #steps: fc.Arbitrary<TimelineStep[]>;

  constructor(steps: fc.Arbitrary<TimelineStep[]>) {
    super();
    this.#steps = steps;
  }

  generate(random: fc.Random, biasFactor: number | undefined): fc.Value<TimelineStep[]> {
    return this.#steps.generate(random, biasFactor);
  }

  canShrinkWithoutContext(value: unknown): value is TimelineStep[] {
    return this.#steps.canShrinkWithoutContext(value);
  }

  shrink(value: TimelineStep[], context: unknown): fc.Stream<fc.Value<TimelineStep[]>> {
    const own = isAloneContext(context) ? context.inner : context;
    const triedAt = isAloneContext(context) ? context.triedAt : -1;
    const tryAlone =
      value.length > 1 && value.length <= MOST_TRIED_ALONE && triedAt !== value.length;
    const triedNow = tryAlone ? value.length : triedAt;
    const listed = this.#steps.shrink(value, own).map(
      (shorter) =>
        new fc.Value(shorter.value_, {
          inner: shorter.context,
          triedAt: triedNow,
        } satisfies AloneContext),
    );
    if (!tryAlone) return listed;
    const alone = value.map((step) => new fc.Value([step], undefined));
    return fc.stream(alone[Symbol.iterator]()).join(listed);
  }
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
