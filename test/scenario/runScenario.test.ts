/**
 * The scenario runner: steps at the times they name and in the order they were scheduled, repeating
 * steps that stop, expectations that stop the run with the virtual time and the actual value, and
 * one timeline of what the script and the simulation did.
 */
import { describe, expect, it } from 'vitest';
import { defineScenario, runScenario } from '../../src/index.js';
import { type ScenarioScript } from '../../src/entries/model.js';
import { relativeClock } from '../../src/projection/timelineLine.js';

const START = '2026-01-05T09:00:00Z';
const scenario = (script: (s: ScenarioScript) => void, extra = {}) =>
  defineScenario({ name: 'test', start: START, script, ...extra });
const notes = (run: ReturnType<typeof runScenario>) =>
  run.timeline
    .filter((e) => e.kind === 'note')
    .map((e) => `${relativeClock(e.at - run.start)} ${e.text}`);

describe('runScenario', () => {
  it('runs steps at relative, absolute and in-scenario times, ties in scheduling order', () => {
    const run = runScenario(
      scenario((s) => {
        s.at('+2m', () => {
          s.note('b');
          s.at('+30s', () => s.note('d: 30 s after b'));
        });
        s.at('2m', () => s.note('c: same instant, scheduled later'));
        s.at('2026-01-05T09:01:00Z', () => s.note('a'));
        s.note('start');
      }),
    );
    expect(run.passed).toBe(true);
    expect(notes(run)).toEqual([
      '+00:00:00.000 start',
      '+00:01:00.000 a',
      '+00:02:00.000 b',
      '+00:02:00.000 c: same instant, scheduled later',
      '+00:02:30.000 d: 30 s after b',
    ]);
  });

  it('repeats every() until the step stops it, or until/times end it', () => {
    const run = runScenario(
      scenario((s) => {
        let n = 0;
        s.every('10s', (stop) => {
          s.note(`tick ${++n}`);
          if (n === 3) stop();
        });
        s.every('1m', () => s.note('until'), { until: '+2m30s' });
        s.every('1h', () => s.note('times'), { times: 2 });
      }),
    );
    expect(notes(run)).toEqual([
      '+00:00:10.000 tick 1',
      '+00:00:20.000 tick 2',
      '+00:00:30.000 tick 3',
      '+00:01:00.000 until',
      '+00:02:00.000 until',
      '+01:00:00.000 times',
      '+02:00:00.000 times',
    ]);
  });

  it('stops at a failed expectation, reporting when, what was expected and what was found', () => {
    let later = false;
    const run = runScenario(
      scenario((s) => {
        const { project, endpoints } = s.request('POST', '/projects', { project: {} }).body;
        const state = () => s.state.projects[project.id]?.endpoints[endpoints[0].id]?.currentState;
        s.at('+1m', () => s.expect('state of the compute', state(), 'active'));
        s.at('+6m', () => s.expect('state of the compute', state(), 'active'));
        s.at('+7m', () => {
          later = true;
        });
      }),
    );
    expect(run.passed).toBe(false);
    expect(run.checks).toBe(2);
    expect(run.failure).toEqual({
      at: Date.parse('2026-01-05T09:06:00Z'),
      message: 'expected state of the compute to be "active", got "idle"',
    });
    expect(later).toBe(false);
    expect(run.timeline.at(-1)).toMatchObject({ kind: 'failure' });
    expect(run.timeline.filter((e) => e.kind === 'check')).toHaveLength(1);
  });

  it('accepts predicates, and reports a throwing step or a step in the past as a failure', () => {
    const predicate = runScenario(scenario((s) => s.expect('the answer', 42, (n) => n > 40)));
    expect(predicate.passed).toBe(true);
    expect(predicate.timeline[0]?.text).toBe('✓ the answer: 42');
    const thrown = runScenario(
      scenario((s) =>
        s.at('+5s', () => {
          throw new Error('boom');
        }),
      ),
    );
    expect(thrown.failure).toEqual({ at: Date.parse(START) + 5000, message: 'boom' });
    const past = runScenario(scenario((s) => s.at('+1m', () => s.at('30s', () => undefined))));
    expect(past.failure?.message).toBe(
      'a step at +00:00:30.000 is in the past (now +00:01:00.000)',
    );
    const bad = runScenario(scenario((s) => s.at('soon', () => undefined)));
    expect(bad.failure?.message).toMatch(/"soon" is neither a time like '\+5m' or '5m' nor an ISO/);
  });

  it('stops a repeating step that never ends with a clear failure', () => {
    const run = runScenario(
      scenario((s) => s.every('1s', () => undefined)),
      { maxSteps: 100 },
    );
    expect(run.failure?.message).toMatch(
      /still running after 100 steps: does an every\(\) never stop\?/,
    );
  });

  it('lasts its duration when it has one, leaving later steps unrun', () => {
    const run = runScenario(
      scenario(
        (s) => {
          s.at('+1h', () => s.note('in'));
          s.at('+3h', () => s.note('out'));
        },
        { duration: '2h' },
      ),
    );
    expect(notes(run)).toEqual(['+01:00:00.000 in']);
    expect(run.end - run.start).toBe(2 * 3_600_000);
  });

  it('waits for operations by polling, then hands over their final records', () => {
    let finals: readonly { action: string; status: string }[] = [];
    const run = runScenario(
      scenario((s) => {
        const { operations } = s.request('POST', '/projects', { project: {} }).body;
        s.waitFor(operations, (done) => {
          finals = done;
        });
      }),
    );
    expect(finals.map((o) => `${o.action}=${o.status}`)).toEqual([
      'create_timeline=finished',
      'start_compute=finished',
    ]);
    const polls = run.timeline.filter((e) => e.kind === 'poll');
    expect(polls.length).toBeGreaterThan(0);
    for (const poll of polls) expect((poll.at - run.start) % 5000).toBe(0);
  });

  it('keeps waiting through failed (retried) attempts until a terminal status', () => {
    let finals: readonly { action: string; status: string }[] = [];
    const run = runScenario(
      scenario(
        (s) => {
          const { operations } = s.request('POST', '/projects', { project: {} }).body;
          s.waitFor(operations, (done) => {
            finals = done;
          });
        },
        {
          profile: {
            faults: { start_compute: { failureRate: 1, maxRetries: 2, retryDelayMs: 20_000 } },
          },
        },
      ),
    );
    const polls = run.timeline.filter((e) => e.kind === 'poll').map((e) => e.text);
    expect(polls.some((p) => p.includes('start_compute=failed'))).toBe(true);
    expect(finals.map((o) => `${o.action}=${o.status}`)).toEqual([
      'create_timeline=finished',
      'start_compute=error',
    ]);
  });

  it('is deterministic for a seed and narrates exactly the events of its log', () => {
    const script = (s: ScenarioScript) => {
      const { endpoints } = s.request('POST', '/projects', { project: {} }).body;
      s.at('+10m', () => s.connect(endpoints[0].id));
    };
    const a = runScenario(scenario(script), { seed: 4 });
    const b = runScenario(scenario(script), { seed: 4 });
    expect(b.timeline).toEqual(a.timeline);
    expect(b.sim.toJSONL()).toBe(a.sim.toJSONL());
    expect(runScenario(scenario(script), { seed: 5 }).timeline).not.toEqual(a.timeline);
    const narrated = a.timeline.filter((e) => e.kind === 'event').length;
    // The header (SimulationStarted) is the run's header line, not a timeline entry.
    const silent = new Set([
      'SimulationStarted',
      'ClockAdvanced',
      'AvailabilityCheckScheduled',
      'SessionArrived',
    ]);
    expect(narrated).toBe([...a.sim.log].filter((e) => !silent.has(e.type)).length);
  });

  it('fails on steps it could not reach before its end, but not on repeating ones', () => {
    const late = runScenario(
      scenario(
        (s) => {
          s.every('10m', () => undefined);
          s.at('+2h', () => s.expect('never checked', 1, 2));
        },
        { duration: '1h' },
      ),
    );
    expect(late.failure?.message).toBe(
      '1 step scheduled after the end (+01:00:00.000) did not run, the first at +02:00:00.000: lengthen the duration or schedule it earlier',
    );
    expect(late.end - late.start).toBe(3_600_000);
    const repeating = runScenario(
      scenario((s) => s.every('1s', () => undefined), { duration: '2d' }),
      { maxSteps: 1_000 },
    );
    expect(repeating.failure).toBeUndefined();
  });

  it('refuses async steps instead of passing before they finish', () => {
    const run = runScenario(scenario((s) => s.at('+1m', async () => s.expect('one', 1, 2))));
    expect(run.failure?.message).toBe(
      'a step returned a promise: it must be synchronous (no async)',
    );
  });

  it('checks every() options, and stop() from another step cancels the next tick', () => {
    for (const times of [1.5, 0, -1, Number.NaN])
      expect(
        runScenario(scenario((s) => s.every('1m', () => undefined, { times }))).failure?.message,
      ).toBe(`every: times must be a whole number ≥ 1, got ${String(times)}`);
    expect(
      runScenario(
        scenario((s) => s.at('+10m', () => s.every('1m', () => undefined, { until: '5m' }))),
      ).failure?.message,
    ).toBe('every: until at +00:05:00.000 is in the past (now +00:10:00.000)');
    const run = runScenario(
      scenario((s) => {
        let stopIt = () => undefined as void;
        s.every('1m', (stop) => {
          stopIt = stop;
          s.note('tick');
        });
        s.at('+1m30s', () => stopIt());
      }),
    );
    expect(notes(run)).toEqual(['+00:01:00.000 tick']);
  });

  it('calls waitFor back at once for no operations', () => {
    const run = runScenario(
      scenario((s) => s.waitFor([], (done) => s.note(`done: ${done.length}`))),
    );
    expect(notes(run)).toEqual(['+00:00:00.000 done: 0']);
    expect(run.timeline.some((e) => e.kind === 'poll')).toBe(false);
  });

  it('reports progress through a long scenario without changing it', () => {
    const busy = scenario(
      (s) => {
        const { endpoints } = s.request('POST', '/projects', { project: {} }).body;
        s.workload({
          kind: 'poisson',
          endpointId: endpoints[0].id,
          rates: 600,
          session: { duration: '1m' },
        });
      },
      { duration: '12h' },
    );
    const seen: [number, number][] = [];
    const watched = runScenario(busy, { onProgress: (done, total) => seen.push([done, total]) });
    expect(seen.length).toBeGreaterThan(2);
    for (const [i, [done, total]] of seen.entries()) {
      expect(total).toBe(12 * 3_600_000);
      expect(done).toBeLessThanOrEqual(total);
      if (i > 0) expect(done).toBeGreaterThanOrEqual(seen[i - 1]![0]);
    }
    expect(runScenario(busy).sim.toJSONL()).toBe(watched.sim.toJSONL());
  });

  it('asks for a duration before attaching a workload', () => {
    const run = runScenario(
      scenario((s) => {
        const { endpoints } = s.request('POST', '/projects', { project: {} }).body;
        s.workload({
          kind: 'cron',
          endpointId: endpoints[0].id,
          every: '10m',
          session: { duration: '1m' },
        });
      }),
    );
    expect(run.failure?.message).toMatch(/^workload: give the scenario a duration/);
  });

  it('refuses a definition without a name or script', () => {
    expect(() => defineScenario({ name: 'has space', script: () => undefined })).toThrow(
      /name must be letters/,
    );
    expect(() => defineScenario({ name: 'x' } as never)).toThrow(/script must be a function/);
  });
});
