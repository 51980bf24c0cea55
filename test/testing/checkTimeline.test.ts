import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LogUnavailableError } from '../../src/index.js';
import {
  assertTimelineClean,
  checkLog,
  checkTimeline,
  defaultMonitors,
  defineMonitor,
  MonitorViolationError,
  playTimeline,
  timeline,
  timelineSimulation,
  watchMonitors,
  type Monitor,
  type Timeline,
} from '../../src/testing/index.js';

/**
 * The default monitors and one that fires at the `nth` operation created, or at the end of a run
 * that created fewer, an odd number of them: violations online, at the end, and clean runs.
 */
function monitors(nth: number): Monitor[] {
  let created = 0;
  return [
    ...defaultMonitors(),
    defineMonitor(
      'nthOperation',
      (event) =>
        event.type === 'OperationCreated' && ++created === nth ? `operation ${nth}` : undefined,
      () => (created < nth && created % 2 === 1 ? `only ${created} operations` : undefined),
    ),
  ];
}

/** A project, a connection to its compute, a restart: operations from the first minute. */
const busyTimeline: Timeline = {
  seed: 9,
  faults: {},
  steps: [
    { gapMs: 1_000, action: { kind: 'createProject' } },
    { gapMs: 60_000, action: { kind: 'connect', compute: 0, holdMs: 5_000 } },
    { gapMs: 60_000, action: { kind: 'restart', compute: 0 } },
  ],
};

/** The same run the long way: the log kept, then read by the monitors. */
function checkedFromLog(t: Timeline, nth: number, settle = '1h', options = {}) {
  const sim = timelineSimulation(t, options);
  playTimeline(sim, t);
  sim.advance(settle);
  return checkLog(sim.log, monitors(nth));
}

describe('checkTimeline', () => {
  // checkTimeline:start
  it('keeps every invariant, whatever happens around it', () => {
    fc.assert(fc.property(timeline(), (t) => assertTimelineClean(t)));
  });
  // checkTimeline:end

  it('gives the verdict checkLog gives over the kept log of the same run', () => {
    const verdicts = new Set<string>();
    fc.assert(
      fc.property(
        timeline({ minSteps: 4, maxSteps: 30 }),
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom('0ms', '5m', '1h', '3h'),
        (t, nth, settle) => {
          const live = checkTimeline(t, { monitors: () => monitors(nth), settle });
          expect(live).toEqual(checkedFromLog(t, nth, settle));
          verdicts.add(
            live === undefined
              ? 'clean'
              : `${live.monitor}${live.seq === undefined ? ' at the end' : ''}`,
          );
        },
      ),
      { numRuns: 40, seed: 11 },
    );
    // Both kinds of violation, and clean runs, were compared.
    expect(verdicts).toContain('clean');
    expect(verdicts).toContain('nthOperation');
    expect(verdicts).toContain('nthOperation at the end');
  });

  it('throws the violation from assertTimelineClean, with the events around it', () => {
    const [t] = fc.sample(timeline({ minSteps: 30, maxSteps: 30, faults: fc.constant({}) }), {
      numRuns: 1,
      seed: 3,
    }) as [Timeline];
    expect(() => assertTimelineClean(t)).not.toThrow();
    let thrown: unknown;
    try {
      assertTimelineClean(t, { monitors: () => monitors(2), context: 2 });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MonitorViolationError);
    const { violation } = thrown as MonitorViolationError;
    expect(violation.monitor).toBe('nthOperation');
    expect(violation.around.map((e) => e.seq)).toEqual(
      [-2, -1, 0, 1, 2].map((d) => (violation.seq as number) + d),
    );
  });

  it('plays on the simulation options given, with the timeline seed over theirs', () => {
    const t = busyTimeline;
    const start = '2027-03-01T00:00:00Z';
    const sim = timelineSimulation(t, { seed: t.seed + 1, start });
    expect(sim.log.header).toMatchObject({ seed: t.seed, at: Date.parse(start) });
    // The first operation of the run, online: at its time in March 2027, as in the kept log.
    const violation = checkTimeline(t, { monitors: () => monitors(1), simulation: { start } });
    expect(violation?.at).toBeGreaterThanOrEqual(Date.parse(start));
    expect(violation).toEqual(checkedFromLog(t, 1, '1h', { start }));
  });

  it('refuses options it cannot run with before playing anything, with a clear error', () => {
    const [t] = fc.sample(timeline({ minSteps: 5, maxSteps: 5 }), { numRuns: 1, seed: 4 }) as [
      Timeline,
    ];
    expect(() => checkTimeline(t, { settle: '-1h' })).toThrow(/Invalid duration/);
    const logged = { simulation: { log: 'memory' } } as never;
    expect(() => checkTimeline(t, logged)).toThrow(/keeps no log.*timelineSimulation/);
    const shared = { monitors: defaultMonitors() } as never;
    expect(() => checkTimeline(t, shared)).toThrow(/monitors must be a function/);
  });

  it('throws what a monitor throws, at once, instead of a verdict', () => {
    const [t] = fc.sample(timeline({ minSteps: 20, maxSteps: 20, faults: fc.constant({}) }), {
      numRuns: 1,
      seed: 6,
    }) as [Timeline];
    let seen = 0;
    const breaks = defineMonitor('breaks', (event) => {
      seen += 1;
      if (event.seq === 5) throw new Error('the monitor broke at event 5');
      return undefined;
    });
    expect(() => checkTimeline(t, { monitors: () => [breaks] })).toThrow(
      'the monitor broke at event 5',
    );
    // It saw nothing after the event it broke on.
    expect(seen).toBe(6);
  });
});

describe('watchMonitors on a simulation that keeps no log', () => {
  it('watches from the start, as checkLog reads a kept log', () => {
    const t = busyTimeline;
    const sim = timelineSimulation(t, { log: 'none' });
    // The first operation, with a wide context: the events around it reach back to the header.
    const watch = watchMonitors(sim, monitors(1), { context: 50 });
    playTimeline(sim, t);
    sim.advance('1h');
    const violation = watch.stop();
    expect(violation?.around[0]).toMatchObject({ type: 'SimulationStarted', seq: 0 });
    const logged = timelineSimulation(t);
    playTimeline(logged, t);
    logged.advance('1h');
    expect(violation).toEqual(checkLog(logged.log, monitors(1), { context: 50 }));
  });

  it('refuses to start after the history it needs is gone, and the run goes on unharmed', () => {
    const [t] = fc.sample(timeline({ minSteps: 10, maxSteps: 10 }), { numRuns: 1, seed: 2 }) as [
      Timeline,
    ];
    const sim = timelineSimulation(t, { log: 'none' });
    playTimeline(sim, t);
    const recorded = sim.log.length;
    expect(() => watchMonitors(sim)).toThrow(LogUnavailableError);
    expect(() => watchMonitors(sim)).toThrow(
      /^watchMonitors needs the \d+ events .* start it before the run's first step/,
    );
    expect(sim.log.length).toBe(recorded);
    sim.advance('1h');
    expect(sim.log.length).toBeGreaterThanOrEqual(recorded);
  });
});
