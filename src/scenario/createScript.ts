/**
 * The script API of a running scenario (what `script(s)` receives): scheduling, requests,
 * connections, workloads, operation waits, lifecycles, notes and expectations, each written to the
 * run's timeline. The runner owns the clock; this file only schedules and records.
 */
import { parseDuration } from '../core/duration.js';
import { isTerminal, type OperationStatus } from '../domain/operationStatus.js';
import type { Simulation } from '../simulation/simulation.js';
import { describeResponse } from '../projection/describeResponse.js';
import { lifecycleOf } from '../projection/lifecycle.js';
import { relativeClock } from '../projection/timelineLine.js';
import { parseConnectionPattern } from './connectionPattern.js';
import { synchronously } from '../core/synchronously.js';
import { ExpectationError, meets, show } from './expectation.js';
import { resolveWhen } from './resolveWhen.js';
import type { PolledOperation, ScenarioScript, When } from './scenarioScript.js';
import type { StepQueue } from './stepQueue.js';
import type { TimelineKind } from './timelineEntry.js';

/** What the script API needs from its runner. */
export interface ScriptHost {
  readonly sim: Simulation;
  readonly start: number;
  readonly steps: StepQueue;
  /** Whether the scenario has a duration (workloads need one: they never end on their own). */
  readonly hasDuration: boolean;
  write(kind: TimelineKind, text: string, at?: number, status?: number): void;
  /** Counts an expectation. */
  checked(): void;
}

/** The script API over `host`. */
export function createScript(host: ScriptHost): ScenarioScript {
  const { sim, start, steps } = host;
  const instantOf = (when: When): number => {
    const resolved = resolveWhen(when, sim.now(), start);
    if (!resolved.ok) throw new RangeError(resolved.error);
    return resolved.value;
  };
  const futureInstantOf = (when: When, what: string): number => {
    const at = instantOf(when);
    if (at < sim.now())
      throw new RangeError(
        `${what} at ${relativeClock(at - start)} is in the past (now ${relativeClock(sim.now() - start)})`,
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
    at(when, step) {
      steps.add(futureInstantOf(when, 'a step'), () => synchronously('a step', step));
    },
    every(interval, step, options = {}) {
      const period = parseDuration(interval);
      if (period <= 0)
        throw new RangeError(`every: the interval must be positive, got ${String(interval)}`);
      const { times = Infinity } = options;
      if (times !== Infinity && (!Number.isSafeInteger(times) || times < 1))
        throw new RangeError(`every: times must be a whole number ≥ 1, got ${String(times)}`);
      const until =
        options.until === undefined ? Infinity : futureInstantOf(options.until, 'every: until');
      let runs = 0;
      let stopped = false;
      const stop = () => {
        stopped = true;
      };
      const tick = () => {
        if (stopped) return;
        synchronously('an every() step', step, stop);
        runs++;
        const next = sim.now() + period;
        if (!stopped && runs < times && next <= until) steps.add(next, tick, false);
      };
      if (sim.now() + period <= until) steps.add(sim.now() + period, tick, false);
    },
    request(method, path, body, requestOptions) {
      const shown = body === undefined ? '' : ` ${show(body)}`;
      host.write('request', `${String(method).toUpperCase()} ${path}${shown}`);
      const response = sim.request(method, path, body, requestOptions);
      host.write('response', `→ ${describeResponse(method, response)}`, sim.now(), response.status);
      return response;
    },
    connect(endpointId, options = {}) {
      const pooled = options.pooled === true ? ' (pooled)' : '';
      host.write('connect', `a client connects to ${endpointId}${pooled}`);
      return sim.connect(endpointId, options);
    },
    workload(input) {
      if (!host.hasDuration)
        throw new RangeError(
          'workload: give the scenario a duration (workloads keep generating sessions; a run without one would stop at the first quiet moment)',
        );
      return sim.addWorkload(input);
    },
    waitFor(operations, then, options = {}) {
      const period = parseDuration(options.every ?? '5s');
      if (period <= 0) throw new RangeError('waitFor: the polling interval must be positive');
      const finish = (final: readonly PolledOperation[]) => {
        if (then !== undefined) synchronously('a waitFor() callback', then, final);
      };
      if (operations.length === 0) return finish([]);
      let pending = operations.map((o) => ({ id: o.id, projectId: o.project_id }));
      const polled = new Map<string, PolledOperation>();
      const poll = () => {
        const now = pending.map((o) => {
          const response = sim.request('GET', `/projects/${o.projectId}/operations/${o.id}`);
          const operation = (response.body as { operation?: PolledOperation }).operation;
          if (operation === undefined)
            throw new Error(`operation ${o.id} is gone (${response.status})`);
          polled.set(o.id, operation);
          return operation;
        });
        host.write('poll', `poll: ${now.map((o) => `${o.action}=${o.status}`).join(', ')}`);
        const unfinished = new Set(
          now.filter((o) => !isTerminal(o.status as OperationStatus)).map((o) => o.id),
        );
        pending = pending.filter((o) => unfinished.has(o.id));
        if (pending.length > 0) steps.add(sim.now() + period, poll);
        else finish(operations.map((o) => polled.get(o.id) as PolledOperation));
      };
      steps.add(sim.now() + period, poll);
    },
    expect(what, actual, expected) {
      host.checked();
      if (meets(actual, expected)) {
        host.write('check', `✓ ${what}: ${show(actual)}`);
        return;
      }
      const wanted = typeof expected === 'function' ? 'to hold' : `to be ${show(expected)}`;
      throw new ExpectationError(`expected ${what} ${wanted}, got ${show(actual)}`);
    },
    connections(endpointId, pattern, options = {}) {
      const parsed = parseConnectionPattern(pattern);
      if (!parsed.ok) throw new RangeError(parsed.error);
      const unit = parseDuration(options.unit ?? '1m');
      const hold = parseDuration(options.hold ?? '30s');
      if (unit <= 0) throw new RangeError('connections: the unit must be positive');
      const from = sim.now();
      for (const { slot, connections } of parsed.value)
        steps.add(from + slot * unit, () => {
          for (let i = 0; i < connections; i++) {
            const client = script.connect(endpointId);
            steps.add(sim.now() + hold, () => client.close(), false);
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
    note: (text) => host.write('note', text),
  };
  return script;
}
