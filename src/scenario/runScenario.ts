/**
 * Plays a scenario: builds the simulation, runs the script's steps at their virtual times, and
 * writes one timeline of what the script did and what the simulation did in between. A failed
 * expectation, or a step that throws, stops the run and is reported with its virtual time.
 */
import { parseDuration } from '../core/duration.js';
import { isTerminal, type OperationStatus } from '../domain/operationStatus.js';
import { DEFAULT_START, Simulation } from '../engine/simulation.js';
import { describeResponse } from '../report/describeResponse.js';
import { lifecycleOf } from '../report/lifecycle.js';
import { createNarrator } from '../report/narrator.js';
import { relativeClock } from '../report/timelineLine.js';
import { parseConnectionPattern } from './connectionPattern.js';
import { ExpectationError, meets, show } from './expectation.js';
import { resolveWhen } from './resolveWhen.js';
import type { ScenarioDefinition } from './scenario.js';
import type { PolledOperation, ScenarioScript, When } from './scenarioScript.js';
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
  const subscription = sim.events$.subscribe((event) => {
    const text = narrate(event);
    if (text !== undefined) write('event', text, event.at);
  });

  const steps = new StepQueue();
  let checks = 0;
  const instantOf = (when: When): number => {
    const resolved = resolveWhen(when, sim.now(), start);
    if (!resolved.ok) throw new RangeError(resolved.error);
    return resolved.value;
  };
  const futureInstantOf = (when: When): number => {
    const at = instantOf(when);
    if (at < sim.now())
      throw new RangeError(
        `a step at ${relativeClock(at - start)} is in the past (now ${relativeClock(sim.now() - start)})`,
      );
    return at;
  };
  const script: ScenarioScript = {
    sim,
    get now() {
      return sim.now();
    },
    get state() {
      return sim.state;
    },
    at: (when, step) => steps.add(futureInstantOf(when), step),
    every(interval, step, everyOptions = {}) {
      const period = parseDuration(interval);
      if (period <= 0)
        throw new RangeError(`every: the interval must be positive, got ${String(interval)}`);
      const until =
        everyOptions.until === undefined ? Infinity : futureInstantOf(everyOptions.until);
      const times = everyOptions.times ?? Infinity;
      let runs = 0;
      let stopped = false;
      const stop = () => {
        stopped = true;
      };
      const tick = () => {
        step(stop);
        runs++;
        const next = sim.now() + period;
        if (!stopped && runs < times && next <= until) steps.add(next, tick);
      };
      if (sim.now() + period <= until && times > 0) steps.add(sim.now() + period, tick);
    },
    request(method, path, body, requestOptions) {
      write(
        'request',
        `${method.toUpperCase()} ${path}${body === undefined ? '' : ` ${show(body)}`}`,
      );
      const response = sim.request(method, path, body, requestOptions);
      write('response', `→ ${describeResponse(method, response)}`, sim.now(), response.status);
      return response;
    },
    connect(endpointId, connectOptions = {}) {
      write(
        'connect',
        `a client connects to ${endpointId}${connectOptions.pooled === true ? ' (pooled)' : ''}`,
      );
      return sim.connect(endpointId, connectOptions);
    },
    workload: (input) => sim.addWorkload(input),
    waitFor(operations, then, waitOptions = {}) {
      let pending = operations.map((o) => ({ id: o.id, projectId: o.project_id }));
      const polled = new Map<string, PolledOperation>();
      script.every(waitOptions.every ?? '5s', (stop) => {
        const now = pending.map((o) => {
          const response = sim.request('GET', `/projects/${o.projectId}/operations/${o.id}`);
          const operation = (response.body as { operation?: PolledOperation }).operation;
          if (operation === undefined)
            throw new Error(`operation ${o.id} is gone (${response.status})`);
          polled.set(o.id, operation);
          return operation;
        });
        write('poll', `poll: ${now.map((o) => `${o.action}=${o.status}`).join(', ')}`);
        const unfinished = new Set(
          now.filter((o) => !isTerminal(o.status as OperationStatus)).map((o) => o.id),
        );
        pending = pending.filter((o) => unfinished.has(o.id));
        if (pending.length === 0) {
          stop();
          then?.(operations.map((o) => polled.get(o.id) as PolledOperation));
        }
      });
    },
    expect(what, actual, expected) {
      checks++;
      if (meets(actual, expected)) {
        write('check', `✓ ${what}: ${show(actual)}`);
        return;
      }
      const wanted = typeof expected === 'function' ? 'to hold' : `to be ${show(expected)}`;
      throw new ExpectationError(`expected ${what} ${wanted}, got ${show(actual)}`);
    },
    connections(endpointId, pattern, connectOptions = {}) {
      const parsed = parseConnectionPattern(pattern);
      if (!parsed.ok) throw new RangeError(parsed.error);
      const unit = parseDuration(connectOptions.unit ?? '1m');
      const hold = parseDuration(connectOptions.hold ?? '30s');
      if (unit <= 0) throw new RangeError('connections: the unit must be positive');
      const from = sim.now();
      for (const { slot, connections } of parsed.value)
        steps.add(from + slot * unit, () => {
          for (let i = 0; i < connections; i++) {
            const client = script.connect(endpointId);
            steps.add(sim.now() + hold, () => client.close());
          }
        });
    },
    lifecycle(endpointId, window = {}) {
      const from = window.from === undefined ? start : instantOf(window.from);
      const unit = window.unit ?? '1m';
      return lifecycleOf(sim.log, endpointId, {
        from,
        unit,
        slots: window.slots ?? Math.ceil((sim.now() - from) / parseDuration(unit)),
      });
    },
    note: (text) => write('note', text),
  };

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
  attempt(() => scenario.script(script));
  for (let taken = 0; failure === undefined; taken++) {
    const step = steps.next();
    if (step === undefined || (end !== undefined && step.at > end)) break;
    if (taken === maxSteps) {
      attempt(() => {
        throw new RangeError(
          `still running after ${maxSteps.toLocaleString('en-US')} steps: does an every() never stop? (give it until: or times:, or call stop())`,
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
