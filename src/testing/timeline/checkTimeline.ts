/**
 * A property run in one call: a fresh simulation with the timeline's seed and faults, monitors
 * watching every event as it happens, the steps played, a settling time, the verdict. The run keeps
 * no event log: the monitors need none, and a violation carries the events around it. A run is
 * determined by its timeline, so a failing one is played again with `timelineSimulation` and
 * `playTimeline` when its whole log is wanted.
 */
import { parseDuration, type Duration } from '../../core/duration.js';
import { Simulation } from '../../simulation/simulation.js';
import type { SimulationOptions } from '../../simulation/simulationOptions.js';
import { withFaults } from '../faultProfile.js';
import { defaultMonitors } from '../monitors/defaultMonitors.js';
import type { Monitor } from '../monitors/monitor.js';
import {
  MonitorViolationError,
  watchMonitors,
  type MonitorOptions,
  type MonitorViolation,
} from '../monitors/watchMonitors.js';
import type { Timeline } from './timeline.js';
import { playTimeline } from './timelineWorld.js';

/** Options of `checkTimeline` and `assertTimelineClean`. */
export interface TimelineCheckOptions extends MonitorOptions {
  /**
   * Makes the monitors of one run (default: `defaultMonitors`). A function, because monitors keep
   * state: each run gets its own, however often the same options are passed.
   */
  readonly monitors?: () => readonly Monitor[];
  /**
   * Virtual time the simulation runs on after the last step, so that what the steps started
   * (operations, suspends, held connections) comes to an end before the monitors' end-of-run
   * checks. Default `'1h'`.
   */
  readonly settle?: Duration;
  /**
   * Options of the simulation, but its log: the run keeps none (`timelineSimulation` makes one that
   * does). The timeline's seed and operation faults go over them.
   */
  readonly simulation?: Omit<SimulationOptions, 'log'>;
}

/**
 * A new simulation carrying a timeline's seed and operation faults, ready for `playTimeline`.
 * `options` are the rest of the simulation's options (the timeline's seed wins over theirs).
 */
export function timelineSimulation(
  timeline: Pick<Timeline, 'seed' | 'faults'>,
  options: SimulationOptions = {},
): Simulation {
  return new Simulation(withFaults({ ...options, seed: timeline.seed }, timeline.faults));
}

/**
 * Plays `timeline` on a fresh simulation that keeps no log, with monitors watching, then lets
 * `settle` of virtual time pass; returns the first violation, or `undefined` when the run is clean.
 * The same verdict as `checkLog` over the log of the same run, for less work. Throws what a monitor
 * throws, and a `RangeError` for options it cannot run with, before anything is played.
 */
export function checkTimeline(
  timeline: Timeline,
  options: TimelineCheckOptions = {},
): MonitorViolation | undefined {
  const settleMs = parseDuration(options.settle ?? '1h');
  if (options.simulation !== undefined && 'log' in options.simulation)
    throw new RangeError(
      'checkTimeline keeps no log: for a run that keeps one, play the timeline on timelineSimulation(t, options)',
    );
  if (options.monitors !== undefined && typeof options.monitors !== 'function')
    throw new RangeError(
      'checkTimeline: monitors must be a function that makes the monitors of one run (monitors keep state)',
    );
  const sim = timelineSimulation(timeline, { ...options.simulation, log: 'none' });
  const watch = watchMonitors(sim, (options.monitors ?? defaultMonitors)(), options);
  playTimeline(sim, timeline);
  sim.advance(settleMs);
  return watch.stop();
}

/** Like `checkTimeline`, but throws a `MonitorViolationError` on a violation. */
export function assertTimelineClean(timeline: Timeline, options?: TimelineCheckOptions): void {
  const violation = checkTimeline(timeline, options);
  if (violation !== undefined) throw new MonitorViolationError(violation);
}
