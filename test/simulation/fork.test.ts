/**
 * sim.fork(at, change): the fork's log up to `at` is the original's, an empty change gives the
 * original's whole log, and with a change the same sessions (arrival times and demands) arrive
 * after `at`; a change that cannot apply is refused and nothing changes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { metricsOf, Simulation, type SimEvent } from '../../src/index.js';
import { type SettingsChange } from '../../src/entries/model.js';
import { workload } from '../../src/testing/arbitraries/workloadArbitraries.js';

const START = Date.parse('2026-01-06T00:00:00Z');

/** One step of a generated run after its projects exist. */
type Step =
  | { readonly kind: 'advance'; readonly minutes: number }
  | { readonly kind: 'attach'; readonly compute: number; readonly make: (id: string) => unknown };

const steps = fc.array(
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('advance' as const),
        minutes: fc.integer({ min: 1, max: 180 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('attach' as const),
        compute: fc.nat(),
        // The workload is drawn for compute 0's id and moved to the chosen compute when attached.
        make: fc.constant(undefined).chain(() => fc.func(workload('placeholder'))),
      }),
    },
  ),
  { minLength: 1, maxLength: 12 },
) as fc.Arbitrary<readonly Step[]>;

const runs = fc.record({
  seed: fc.integer({ min: 1, max: 1_000 }),
  projects: fc.integer({ min: 1, max: 3 }),
  rates: fc.integer({ min: 1, max: 20 }),
  steps,
  atFraction: fc.double({ min: 0, max: 1, noNaN: true }),
});

/** A generated run. */
type Run = typeof runs extends fc.Arbitrary<infer R> ? R : never;

/** Builds and runs a generated run; returns it, its computes and the fork instant. */
function play(run: Run) {
  const sim = new Simulation({ seed: run.seed, start: START });
  const computes: string[] = [];
  for (let i = 0; i < run.projects; i++) {
    const id: string = sim.request('POST', '/projects', { project: { name: `p${i}` } }).body
      .endpoints[0].id;
    computes.push(id);
    sim.addWorkload({
      kind: 'poisson',
      endpointId: id,
      rates: run.rates,
      session: { duration: { dist: 'exponential', mean: '3m' }, cpu: 0.5 },
    });
  }
  for (const step of run.steps) {
    if (step.kind === 'advance') sim.advance(`${step.minutes}m`);
    else {
      const endpointId = computes[step.compute % computes.length] as string;
      const input = { ...(step.make(endpointId) as object), endpointId };
      sim.addWorkload(input as Parameters<Simulation['addWorkload']>[0]);
    }
  }
  const at = START + Math.floor(run.atFraction * (sim.now() - START));
  return { sim, computes, at };
}

const changes = (computes: readonly string[]): fc.Arbitrary<SettingsChange> =>
  fc
    .record(
      {
        profile: fc.record(
          {
            defaultSuspendTimeoutSeconds: fc.integer({ min: 60, max: 900 }),
            autoscaling: fc.record({ cpuGoal: fc.double({ min: 0.3, max: 1, noNaN: true }) }),
            latency: fc.record({
              wake_compute: fc
                .tuple(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 0, max: 2_000 }))
                .map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const),
            }),
          },
          { requiredKeys: [] },
        ),
        computes: fc
          .record({
            index: fc.nat(),
            settings: fc.record(
              {
                suspendTimeoutSeconds: fc.constantFrom(-1, 0, 60, 120, 3_600),
                maxCu: fc.constantFrom(0.25, 0.5, 1, 2),
              },
              { requiredKeys: [] },
            ),
          })
          .map(({ index, settings }) => ({
            [computes[index % computes.length] as string]: {
              ...settings,
              ...(settings.maxCu === undefined ? {} : { minCu: 0.25 }),
            },
          })),
      },
      { requiredKeys: [] },
    )
    .map((change) => change as SettingsChange);

const lines = (events: Iterable<SimEvent>) => [...events].map((event) => JSON.stringify(event));

/** Sessions arriving after `at`: which, when, and what each asks of its compute. */
function sessionsAfter(sim: Simulation, at: number): string[] {
  const events = sim.log.slice();
  const sessions: string[] = [];
  events.forEach((event, seq) => {
    if (event.type !== 'SessionArrived' || event.at <= at) return;
    const next = events[seq + 1];
    const demand =
      next !== undefined && 'holdMs' in next
        ? JSON.stringify([next.holdMs, next.milliCpu, next.memoryMb, next.cacheMb, next.endpointId])
        : 'no connection';
    sessions.push(`${event.workloadId}#${event.index} at ${event.at}: ${demand}`);
  });
  return sessions;
}

describe('sim.fork', () => {
  it('keeps the log up to the fork point byte for byte, records the change there, and replays', () => {
    fc.assert(
      fc.property(runs, fc.context(), (run, ctx) => {
        const { sim, computes, at } = play(run);
        const change = fc.sample(changes(computes), { seed: run.seed, numRuns: 1 })[0] ?? {};
        ctx.log(JSON.stringify(change));
        const before = sim.toJSONL();
        const fork = sim.fork(at, change);
        const cut = sim.log.firstAfter(at);
        expect(lines(fork.log.range(0, cut))).toEqual(lines(sim.log.range(0, cut)));
        expect(fork.now()).toBe(sim.now());
        expect(sim.toJSONL()).toBe(before);
        const changed = fork.log.get(cut);
        if (changed?.type === 'SettingsChanged') expect(changed.at).toBe(at);
        else expect(fork.toJSONL()).toBe(before);
        const replayed = Simulation.fromLog(fork.toJSONL());
        expect(replayed.state).toEqual(fork.state);
        expect(replayed.profile).toEqual(fork.profile);
      }),
      { numRuns: 25 },
    );
  });

  it('gives the original whole log for an empty change, and for values already in force', () => {
    fc.assert(
      fc.property(runs, (run) => {
        const { sim, computes, at } = play(run);
        expect(sim.fork(at, {}).toJSONL()).toBe(sim.toJSONL());
        const inForce = sim.stateAt(at).projects;
        const endpoint = Object.values(inForce)
          .flatMap((p) => Object.values(p.endpoints))
          .find((e) => e.id === computes[0]);
        const same: SettingsChange = {
          profile: { defaultSuspendTimeoutSeconds: sim.profile.defaultSuspendTimeoutSeconds },
          computes: { [computes[0] as string]: { maxCu: endpoint?.maxCu as number } },
        };
        expect(sim.fork(at, same).toJSONL()).toBe(sim.toJSONL());
      }),
      { numRuns: 15 },
    );
  });

  it('lets the same sessions arrive after the fork point: arrival times and demands', () => {
    fc.assert(
      fc.property(runs, (run) => {
        const { sim, computes, at } = play(run);
        const change = fc.sample(changes(computes), { seed: run.seed + 1, numRuns: 1 })[0] ?? {};
        const fork = sim.fork(at, change);
        expect(sessionsAfter(fork, at)).toEqual(sessionsAfter(sim, at));
      }),
      { numRuns: 25 },
    );
  });

  it('runs a shorter suspend timeout from the fork point: fewer CU-hours after it, same sessions', () => {
    const sim = new Simulation({ seed: 3, start: START });
    const id: string = sim.request('POST', '/projects', { project: { name: 'p' } }).body
      .endpoints[0].id;
    sim.addWorkload({
      kind: 'poisson',
      endpointId: id,
      rates: 3,
      session: { duration: { dist: 'exponential', mean: '2m' } },
    });
    sim.advance('1d');
    const noon = START + 12 * 3_600_000;
    const fork = sim.fork(noon, { profile: { defaultSuspendTimeoutSeconds: 60 } });
    expect(fork.profile.defaultSuspendTimeoutSeconds).toBe(60);
    expect(sim.profile.defaultSuspendTimeoutSeconds).toBe(300);
    const [asRun, forked] = [sim, fork].map((s) => metricsOf(s.log, { from: noon }).fleet);
    expect(forked?.sessions).toBe(asRun?.sessions);
    expect(forked?.cuHours).toBeLessThan(asRun?.cuHours as number);
    expect(forked?.suspends).toBeGreaterThan(asRun?.suspends as number);
    // The morning, everything before the change at noon, is the same event for event.
    const cut = sim.log.firstAfter(noon);
    expect(metricsOf(fork.log.range(0, cut)).fleet).toEqual(metricsOf(sim.log.range(0, cut)).fleet);
  });

  it("changes a Poisson workload's rates from the fork point, the pending arrival drawn again", () => {
    const sim = new Simulation({ seed: 9, start: START });
    const id: string = sim.request('POST', '/projects', { project: { name: 'p' } }).body
      .endpoints[0].id;
    sim.addWorkload({ kind: 'poisson', endpointId: id, rates: 10, session: { duration: '1m' } });
    sim.advance('12h');
    const at = START + 6 * 3_600_000;
    const doubled = sim.fork(at, { workloads: { w1: { rateScale: 2 } } });
    const halved = sim.fork(at, { workloads: { w1: { rates: 5 } } });
    const after = (s: Simulation) => metricsOf(s.log, { from: at }).fleet.sessions;
    expect(after(doubled)).toBeGreaterThan(after(sim) * 1.5);
    expect(after(halved)).toBeLessThan(after(sim) * 0.75);
    const first = (s: Simulation) => sessionsAfter(s, at)[0]?.split(' at ')[0];
    // Session numbers carry on where the original stood: the next one is the same session.
    expect(first(doubled)).toBe(first(sim));
    expect(Simulation.replay(doubled.log).state).toEqual(doubled.state);
  });

  it('repeats workloads attached after the fork point; a fork to a later instant runs on', () => {
    const sim = new Simulation({ seed: 4, start: START });
    const id: string = sim.request('POST', '/projects', { project: { name: 'p' } }).body
      .endpoints[0].id;
    sim.advance('2h');
    sim.addWorkload({
      kind: 'burst',
      endpointId: id,
      count: 20,
      within: '10m',
      session: { duration: '1m' },
    });
    sim.advance('2h');
    const fork = sim.fork(
      START + 3_600_000,
      { profile: { defaultSuspendTimeoutSeconds: 120 } },
      {
        until: START + 6 * 3_600_000,
      },
    );
    expect(fork.now()).toBe(START + 6 * 3_600_000);
    expect(sessionsAfter(fork, START + 3_600_000)).toEqual(sessionsAfter(sim, START + 3_600_000));
    expect(fork.state.workloads['w1']?.spec).toEqual(sim.state.workloads['w1']?.spec);
  });

  it('refuses a change that cannot apply, naming it, and changes nothing', () => {
    const sim = new Simulation({ seed: 2, start: START });
    const id: string = sim.request('POST', '/projects', { project: { name: 'p' } }).body
      .endpoints[0].id;
    sim.addWorkload({ kind: 'cron', endpointId: id, every: '10m', session: { duration: '1m' } });
    sim.advance('1h');
    const before = sim.toJSONL();
    const at = START + 1_800_000;
    const refusals: [unknown, RegExp][] = [
      [{ computes: { 'ep-nope': { minCu: 1 } } }, /no compute ep-nope at 2026-01-06T00:30:00Z/],
      [{ computes: { [id]: { minCu: 2, maxCu: 1 } } }, /must not exceed/],
      [{ computes: { [id]: { suspendTimeoutSeconds: 5 } } }, /suspend/],
      [{ profile: { defaultSuspendTimeoutSeconds: 10 } }, /defaultSuspendTimeoutSeconds must be/],
      [{ profile: { autoscaling: { cpuGoal: 2 } } }, /cpuGoal must be in \(0, 1\]/],
      [{ profile: { base: 'current' } }, /base cannot change/],
      [{ profile: { nope: 1 } }, /unknown setting "nope"/],
      [{ workloads: { w7: { rateScale: 2 } } }, /no workload w7/],
      [{ workloads: { w1: { rateScale: 2 } } }, /a cron workload has no rates/],
      [{ workloads: { w1: { rateScale: -1 } } }, /rateScale/],
      [{ everything: true }, /unknown part "everything"/],
      [{ computes: [1] }, /computes/],
    ];
    for (const [change, message] of refusals)
      expect(() => sim.fork(at, change as SettingsChange), JSON.stringify(change)).toThrow(message);
    expect(() => sim.fork(START - 1, {})).toThrow(/outside the run/);
    expect(() => sim.fork(START + 2 * 3_600_000, {})).toThrow(/outside the run/);
    expect(() => sim.fork('noon', {})).toThrow(/fork: at: Invalid instant/);
    expect(() => sim.fork(at, {}, { until: START })).toThrow(/before the fork point/);
    expect(sim.toJSONL()).toBe(before);
  });

  it('Simulation.fromLog reads events or JSON Lines, and refuses a torn last line', () => {
    const sim = new Simulation({ seed: 2 });
    sim.request('POST', '/projects', { project: { name: 'p' } });
    sim.advance('10m');
    expect(Simulation.fromLog(sim.log).state).toEqual(sim.state);
    expect(Simulation.fromLog(sim.toJSONL()).toJSONL()).toBe(sim.toJSONL());
    expect(() => Simulation.fromLog(sim.toJSONL().slice(0, -10))).toThrow(/line/);
  });
});
