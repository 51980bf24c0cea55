/**
 * Testing-toolkit benchmark: property runs per second for 50-step timelines (generated with faults,
 * played against a fresh simulation, checked by every invariant monitor), two ways: `checkTimeline`
 * (monitors watching as the run goes, no log kept: the toolkit's property run, judged against the
 * target of 1,000 runs a second) and the log kept then read by `checkLog`; and for a client run
 * through the harness on top of such a world. Printed beside the engine floor of the same run.
 *
 * Run: npm run bench -- testing
 */
import fc from 'fast-check';
import { Simulation } from '../src/index.js';
import {
  checkLog,
  checkTimeline,
  playTimeline,
  runClient,
  timeline,
  timelineSpanMs,
  withFaults,
  type ClientContext,
  type Timeline,
} from '../src/testing/index.js';
import { floorRun } from './support/floor.js';
import { measure, rate } from './support/measure.js';
import { recordFigures, rounded } from './support/results.js';

const STEPS = 50;
/** Property runs a second a suite of ten properties at 1,000 runs each needs to take seconds. */
const TARGET_RUNS_PER_SECOND = 1_000;
const RUNS = 200;

/** One property run the long way: keep the log, play the timeline, let an hour pass, read the log. */
function propertyRunFromLog(t: Timeline): number {
  const sim = new Simulation(withFaults({ seed: t.seed }, t.faults));
  playTimeline(sim, t);
  sim.advance('1h');
  if (checkLog(sim.log) !== undefined) throw new Error('a monitor fired on a generated timeline');
  return sim.log.length;
}

/**
 * A client that creates a project and waits for its operations, polling every 2 s, then stays
 * until `untilMs` into the run so that the whole world timeline plays around it.
 */
async function client(ctx: ClientContext, untilMs: number): Promise<void> {
  const startedAt = ctx.now();
  await poll(ctx);
  await ctx.sleep(Math.max(0, startedAt + untilMs - ctx.now()));
}

/** Creates a project and polls its operations until none is running. */
async function poll(ctx: ClientContext): Promise<void> {
  const post = await ctx.fetch(`${ctx.baseURL}/projects`, {
    method: 'POST',
    body: '{"project":{}}',
  });
  if (post.status !== 201) return;
  const { project, operations } = (await post.json()) as {
    project: { id: string };
    operations: { id: string }[];
  };
  for (const op of operations)
    for (;;) {
      const got = await ctx.fetch(`${ctx.baseURL}/projects/${project.id}/operations/${op.id}`);
      const status = ((await got.json()) as { operation?: { status: string } }).operation?.status;
      if (status !== 'running' && status !== 'scheduling') break;
      await ctx.sleep(2_000);
    }
}

/** Runs the testing benchmark; returns whether the property runs reached their target rate. */
export async function runTestingBenchmark(): Promise<boolean> {
  const floor = measure('floor: typed-array heap on (due, seq)', floorRun);
  const timelines = fc.sample(timeline({ minSteps: STEPS, maxSteps: STEPS }), {
    numRuns: RUNS,
    seed: 42,
  });
  let events = 0;
  const fromLog = measure(`${STEPS}-step timeline, log kept, checkLog`, () => {
    events = 0;
    for (const t of timelines) events += propertyRunFromLog(t);
    return timelines.length;
  });
  const live = measure(`${STEPS}-step timeline, checkTimeline`, () => {
    for (const t of timelines)
      if (checkTimeline(t) !== undefined)
        throw new Error('a monitor fired on a generated timeline');
    return timelines.length;
  });
  const clientRuns = timelines.slice(0, RUNS / 4);
  const warm = async () => {
    for (const t of clientRuns)
      await runClient((ctx) => client(ctx, timelineSpanMs(t.steps) + 3_600_000), {
        seed: t.seed,
        faults: t.faults,
        world: t.steps,
        within: '30d',
      });
  };
  await warm();
  const started = process.hrtime.bigint();
  await warm();
  const clientSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const perRun = events / timelines.length;
  console.log(
    `\nProperty runs with ${STEPS}-step timelines (faults drawn too), beside the engine floor`,
  );
  console.log(
    `${'run'.padEnd(44)} ${'runs/s'.padStart(10)} ${'events/run'.padStart(11)} ${'events/s'.padStart(12)}  per floor event`,
  );
  console.log(
    `${floor.name.padEnd(44)} ${''.padStart(10)} ${''.padStart(11)} ${rate(floor.eventsPerSecond).padStart(12)}  1.0000`,
  );
  // Both ways play the same runs (a run is determined by its timeline): the same events each.
  for (const way of [live, fromLog]) {
    const eventsPerSecond = way.eventsPerSecond * perRun;
    console.log(
      `${way.name.padEnd(44)} ${way.eventsPerSecond.toFixed(1).padStart(10)} ${perRun.toFixed(0).padStart(11)} ${rate(eventsPerSecond).padStart(12)}  ${(eventsPerSecond / floor.eventsPerSecond).toFixed(4)}`,
    );
  }
  console.log(
    `${'same timeline + an async client (runClient)'.padEnd(44)} ${(clientRuns.length / clientSeconds).toFixed(1).padStart(10)}`,
  );
  const met = live.eventsPerSecond >= TARGET_RUNS_PER_SECOND;
  console.log(
    `property runs/s with checkTimeline ${live.eventsPerSecond.toFixed(1)} (target ≥ ${TARGET_RUNS_PER_SECOND}: ${met ? 'met' : 'MISSED'}); ` +
      `${(live.eventsPerSecond / fromLog.eventsPerSecond).toFixed(2)}× the runs that keep and read the log`,
  );
  recordFigures('testing', `${STEPS}-step timelines with faults`, [
    {
      figure: 'property runs/s (checkTimeline)',
      value: rounded(live.eventsPerSecond, 1),
      unit: 'runs/s',
      peer: { name: 'floor', value: Math.round(floor.eventsPerSecond), unit: 'events/s' },
      target: `≥ ${TARGET_RUNS_PER_SECOND}`,
      met,
    },
  ]);
  return met;
}

if (import.meta.url === `file://${process.argv[1]}`) await runTestingBenchmark();
