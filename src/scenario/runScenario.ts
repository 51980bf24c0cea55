/**
 * Plays a scenario: builds the simulation, runs the script's steps at their virtual times, and
 * writes one timeline of what the script did and what the simulation did in between. A failed
 * expectation, or a step that throws, stops the run and is reported with its virtual time.
 */
import { parseDuration } from '../core/duration.js';
import { Simulation } from '../simulation/simulation.js';
import { DEFAULT_START } from '../simulation/simulationOptions.js';
import { createNarrator } from '../projection/narrator.js';
import { relativeClock } from '../projection/timelineLine.js';
import type { ScenarioDefinition } from './scenario.js';
import { synchronously } from '../core/synchronously.js';
import { createScript } from './createScript.js';
import { StepQueue } from './stepQueue.js';
import type { TimelineEntry, TimelineKind } from './timelineEntry.js';

/** Options of one run. */
export interface RunScenarioOptions {
  /** Seed instead of the scenario's. */
  readonly seed?: number;
  /** Called once the simulation exists, before the script runs (for streaming output). */
  readonly onStart?: (run: RunInfo) => void;
  /** Called with each timeline line as it is written (for streaming output). */
  readonly onEntry?: (entry: TimelineEntry) => void;
  /**
   * Called now and then (every few thousand events) with how far a scenario that has a duration
   * has got, in virtual ms since its start, and its duration. Observing only: runs are the same.
   */
  readonly onProgress?: (done: number, total: number) => void;
  /** Stop with a failure after this many steps (default 1,000,000): a repeating step never stopped. */
  readonly maxSteps?: number;
}

/** What a run is, known before it starts. */
export interface RunInfo {
  readonly name: string;
  readonly description?: string;
  readonly seed: number;
  readonly start: number;
}

/** The outcome of a run. */
export interface ScenarioRun extends RunInfo {
  readonly end: number;
  readonly passed: boolean;
  /** Why the run stopped early (an expectation, a throwing step), with its virtual time. */
  readonly failure?: { readonly at: number; readonly message: string };
  readonly checks: number;
  readonly timeline: readonly TimelineEntry[];
  /** The simulation as the run left it (its log, state, metrics). */
  readonly sim: Simulation;
}

/** Runs `scenario` to its end (or its first failure). Never throws for a failing scenario. */
export function runScenario(
  scenario: ScenarioDefinition,
  options: RunScenarioOptions = {},
): ScenarioRun {
  const seed = options.seed ?? scenario.seed ?? 1;
  const sim = new Simulation({
    seed,
    start: scenario.start ?? DEFAULT_START,
    ...(scenario.profile === undefined ? {} : { profile: scenario.profile }),
  });
  const start = sim.now();
  const info = {
    name: scenario.name,
    ...(scenario.description === undefined ? {} : { description: scenario.description }),
    seed,
    start,
  };
  options.onStart?.(info);
  const end =
    scenario.duration === undefined ? undefined : start + parseDuration(scenario.duration);
  const timeline: TimelineEntry[] = [];
  const write = (kind: TimelineKind, text: string, at = sim.now(), status?: number) => {
    const entry = status === undefined ? { at, kind, text } : { at, kind, text, status };
    timeline.push(entry);
    options.onEntry?.(entry);
  };
  const narrate = createNarrator();
  const onProgress = end === undefined ? undefined : options.onProgress;
  let events = 0;
  const subscription = sim.events$.subscribe((event) => {
    const text = narrate(event);
    if (text !== undefined) write('event', text, event.at);
    if (onProgress !== undefined && ++events % 4096 === 0)
      onProgress(event.at - start, (end as number) - start);
  });

  const steps = new StepQueue();
  let checks = 0;
  const script = createScript({
    sim,
    start,
    steps,
    hasDuration: end !== undefined,
    write,
    checked: () => {
      checks++;
    },
  });

  const maxSteps = options.maxSteps ?? 1_000_000;
  let failure: { at: number; message: string } | undefined;
  const attempt = (run: () => void) => {
    try {
      run();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      failure = { at: sim.now(), message };
      write('failure', `✗ ${message}`);
    }
  };
  attempt(() => synchronously('the script', scenario.script, script));
  for (let taken = 0; failure === undefined; taken++) {
    const step = steps.next();
    if (step === undefined) break;
    if (end !== undefined && step.at > end) {
      const left = [step, ...steps.requiredLeft()].filter((s) => s.required);
      const first = left[0];
      if (first !== undefined)
        attempt(() => {
          sim.advanceTo(end, { stepLimit: Number.MAX_SAFE_INTEGER });
          throw new RangeError(
            `${left.length} step${left.length === 1 ? '' : 's'} scheduled after the end (${relativeClock(end - start)}) did not run, the first at ${relativeClock(first.at - start)}: lengthen the duration or schedule ${left.length === 1 ? 'it' : 'them'} earlier`,
          );
        });
      break;
    }
    if (end === undefined && taken === maxSteps) {
      attempt(() => {
        throw new RangeError(
          `still running after ${maxSteps.toLocaleString('en-US')} steps: does an every() never stop? (give it until: or times:, call stop(), or give the scenario a duration)`,
        );
      });
      break;
    }
    attempt(() => {
      sim.advanceTo(step.at, { stepLimit: Number.MAX_SAFE_INTEGER });
      step.run();
    });
  }
  if (failure === undefined)
    attempt(() => {
      if (end !== undefined) sim.advanceTo(end, { stepLimit: Number.MAX_SAFE_INTEGER });
      else sim.runUntilIdle();
    });
  subscription.unsubscribe();
  return {
    ...info,
    end: sim.now(),
    passed: failure === undefined,
    ...(failure === undefined ? {} : { failure }),
    checks,
    timeline,
    sim,
  };
}
