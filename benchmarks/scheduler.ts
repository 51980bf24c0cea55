/**
 * Scheduler benchmark: the hold model (10,000 live timers, 2,000,000 events) on two typed-array
 * binary-heap floors, on the engine's Agenda, and through the full engine loop (decide + log append +
 * evolve + publish + re-arm). Prints events/s and the ratios to both floors of the same run.
 *
 * The floor the targets are judged on orders by (due, seq): the least any agenda must do, since ties
 * must leave in scheduling order for runs to be deterministic. The strict floor orders by due alone
 * (ties in arbitrary order): cheaper, but not a valid agenda; its ratios are printed for honesty.
 *
 * Run: npm run bench -- scheduler   (or: npx tsx benchmarks/scheduler.ts)
 */
import { LAST_INSTANT } from '../src/core/instant.js';
import { Agenda, Engine } from '../src/engine/index.js';
import { HOLD_EVENTS, LIVE_TIMERS, increment } from './support/holdModel.js';
import { measure, report, type Measurement } from './support/measure.js';
import { recordFigures, rounded } from './support/results.js';
import { syntheticModel } from './support/syntheticModel.js';
import { floorRun, strictFloorRun } from './support/floor.js';

function agendaRun(): number {
  const agenda = new Agenda<number>();
  let step = 0;
  for (let i = 0; i < LIVE_TIMERS; i++) agenda.push(increment(step++), i);
  for (let i = 0; i < HOLD_EVENTS; i++) {
    const now = agenda.peekDue();
    const timer = agenda.popTimer() as number;
    agenda.push(now + increment(step++), timer);
  }
  return HOLD_EVENTS;
}

function engineRun(): number {
  const engine = new Engine(syntheticModel(HOLD_EVENTS), { seed: 1, start: 0, config: {} });
  engine.execute({ type: 'Start', jobs: LIVE_TIMERS });
  engine.advanceTo(LAST_INSTANT);
  return Object.values(engine.state.jobs).reduce((runs, job) => runs + job.runs, 0);
}

/** Runs the scheduler benchmark; returns whether every target was met. */
export function runSchedulerBenchmark(): boolean {
  const floor = measure('floor: typed-array heap on (due, seq)', floorRun);
  const strictFloor = measure('strict floor: typed-array heap on due only', strictFloorRun);
  const agenda = measure('engine Agenda (due, seq, payload)', agendaRun);
  const engine = measure('full engine loop (decide+log+evolve+arm)', engineRun);
  const met = report(
    `Scheduler, hold model: ${LIVE_TIMERS.toLocaleString('en-US')} live timers, ${HOLD_EVENTS.toLocaleString('en-US')} events (median of 3)`,
    floor,
    strictFloor,
    [
      { ...agenda, target: 0.5 },
      // The fleet-scale issue's target: a quarter of the floor, kept with a margin.
      { ...engine, target: 0.25 },
    ],
  );
  const ofFloor = (m: Measurement) => rounded(m.eventsPerSecond / floor.eventsPerSecond, 3);
  const peer = { name: 'floor', value: Math.round(floor.eventsPerSecond), unit: 'events/s' };
  recordFigures('scheduler', `hold model, ${LIVE_TIMERS} timers, ${HOLD_EVENTS} events`, [
    {
      figure: 'agenda / floor',
      value: ofFloor(agenda),
      unit: '×',
      peer,
      target: '≥ 0.50',
      met: ofFloor(agenda) >= 0.5,
    },
    {
      figure: 'full engine loop / floor',
      value: ofFloor(engine),
      unit: '×',
      peer,
      target: '≥ 0.25',
      met: ofFloor(engine) >= 0.25,
    },
  ]);
  return met;
}

if (import.meta.url === `file://${process.argv[1]}`) runSchedulerBenchmark();
