/**
 * The engine's ceiling under a fleet: the fleet's own events, captured from a short run of it,
 * played through the engine and its log by a Decider that does nothing else (no state, no
 * decisions, one timer re-armed per event). What an event costs there estimates the least any
 * control plane on this engine and log can cost: a fleet can run no faster, whatever its model
 * does. The captured objects are played again and again (the engine stamps them anew), so the
 * figure leaves out building them; they are colder in the cache than a live run's fresh ones.
 */
import { LAST_INSTANT } from '../../src/core/instant.js';
import { Engine, type Decider, type LoggedEvent } from '../../src/engine/index.js';
import type { LogKeeping } from '../../src/engine/eventLog.js';
import { type Simulation } from '../../src/index.js';
import { ok } from '../../src/engine/index.js';
import { LIVE_TIMERS, increment } from './holdModel.js';
import { runFleet } from './fleet.js';
import { median } from './measure.js';

/** The one timer the playback arms: play the next captured event. */
interface Play {
  readonly type: 'Play';
}
const PLAY: Play = { type: 'Play' };

/** Events of a fleet, as its `events$` gave them; playing them stamps them anew. */
export type CapturedEvents = readonly LoggedEvent[];

/**
 * The events `sim` appends while `during` runs (clock marks left out). The objects are the
 * simulation's own, which a playback then changes (their `at` and `seq`).
 */
export function captureEvents(sim: Simulation, during: () => void): CapturedEvents {
  const captured: LoggedEvent[] = [];
  const subscription = sim.events$.subscribe((event) => {
    if (event.type !== 'ClockAdvanced') captured.push(event);
  });
  try {
    during();
  } finally {
    subscription.unsubscribe();
  }
  return captured;
}

/** A Decider that plays `events` in a loop, `total` of them, one per fired timer. */
function playback(
  events: CapturedEvents,
  total: number,
  liveTimers: number,
  counter: { played: number },
): Decider<object, Play, LoggedEvent, Play, never> {
  let step = 0;
  return {
    initialState: () => ({}),
    decide: () => ok([events[counter.played++ % events.length] as LoggedEvent]),
    evolve: () => undefined,
    armTimers(event, _state, arm) {
      if (counter.played + liveTimers <= total) arm(event.at + increment(step++), PLAY);
    },
    commandForTimer: (timer) => timer,
  };
}

/**
 * Plays `total` captured events through a fresh engine keeping its log as `log`, starting at the
 * first event's time (so times the events hold, such as a next arrival, are as near their event
 * as in the run); returns how many it played and the wall seconds that took. The agenda keeps
 * `liveTimers` timers (the hold model's by default), each of which plays one event when it fires.
 */
export function playThroughEngine(
  events: CapturedEvents,
  total: number,
  log: LogKeeping,
  liveTimers = LIVE_TIMERS,
): { readonly events: number; readonly seconds: number } {
  const first = events[0];
  if (first === undefined) throw new RangeError('playThroughEngine: no events were captured');
  if (total < liveTimers)
    throw new RangeError(`playThroughEngine: ${total} events cannot keep ${liveTimers} timers`);
  const counter = { played: 0 };
  const started = process.hrtime.bigint();
  const engine = new Engine(playback(events, total, liveTimers, counter), {
    seed: 1,
    start: first.at,
    config: {},
    log,
    stepLimit: total,
  });
  for (let i = 0; i < liveTimers; i++) engine.execute(PLAY);
  engine.advanceTo(LAST_INSTANT);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { events: counter.played, seconds };
}

/** What an event costs on the engine alone, with the log kept in memory and with none kept. */
export interface EngineCeiling {
  /** Microseconds an event with the log kept in memory (median of the samples). */
  readonly microsPerEvent: number;
  /** Microseconds an event with no log kept (median of the samples). */
  readonly microsPerEventNoLog: number;
}

/** Samples of each kind, interleaved; the median is kept (no forced collections between them). */
const SAMPLES = 3;

/**
 * Captures a day of the fleet `build` makes (after a day to warm it), then plays `played` events of
 * it through the engine with the log kept and with none, interleaved; returns the medians.
 */
export function measureEngineCeiling(build: () => Simulation, played: number): EngineCeiling {
  const sim = warmedUp(build());
  const events = captureEvents(sim, () => runFleet(sim, 1));
  const kept: number[] = [];
  const none: number[] = [];
  playThroughEngine(events, played, 'memory');
  for (let i = 0; i < SAMPLES; i++) {
    const withLog = playThroughEngine(events, played, 'memory');
    kept.push((withLog.seconds * 1e6) / withLog.events);
    const noLog = playThroughEngine(events, played, 'none');
    none.push((noLog.seconds * 1e6) / noLog.events);
  }
  return { microsPerEvent: median(kept), microsPerEventNoLog: median(none) };
}

/** `sim` after its first simulated day (workloads arrived, computes started once). */
function warmedUp(sim: Simulation): Simulation {
  runFleet(sim, 1);
  return sim;
}
