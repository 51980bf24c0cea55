import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClockError, Simulation } from '../../src/index.js';
import { runScript, scriptArb, simulate } from '../support/scripts.js';

const NUM_RUNS = 60;

const createdIds = (sim: Simulation): string[] =>
  [...sim.log].flatMap((e) => {
    switch (e.type) {
      case 'ProjectCreated':
        return [e.projectId, e.defaultBranchId];
      case 'EndpointCreated':
        return [e.endpointId];
      case 'OperationCreated':
        return [e.operationId];
      default:
        return [];
    }
  });

describe('determinism', () => {
  it('same seed and same inputs give a byte-identical JSON Lines log', () => {
    fc.assert(
      fc.property(fc.integer(), scriptArb(), (seed, script) => {
        expect(simulate(script, { seed }).toJSONL()).toBe(simulate(script, { seed }).toJSONL());
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('different seeds give different ids', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer(), fc.integer({ min: 1, max: 5 }), (a, b, projects) => {
        fc.pre(a !== b);
        const script = Array.from({ length: projects }, () => ({ kind: 'createProject' as const }));
        const idsA = createdIds(simulate(script, { seed: a }));
        const idsB = createdIds(simulate(script, { seed: b }));
        expect(idsA).toHaveLength(idsB.length);
        expect(idsA.filter((id) => idsB.includes(id))).toEqual([]);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('the clock never goes back, and an attempt is an error that changes nothing', () => {
    fc.assert(
      fc.property(scriptArb(), fc.integer({ min: 1, max: 10_000 }), (script, back) => {
        const sim = new Simulation();
        const times = runScript(sim, script);
        for (let i = 1; i < times.length; i++)
          expect(times[i]).toBeGreaterThanOrEqual(times[i - 1] as number);
        const { length } = sim.log;
        const state = sim.state;
        const now = sim.now();
        expect(() => sim.advanceTo(now - back)).toThrow(ClockError);
        expect(() => sim.runUntil(now - back)).toThrow(ClockError);
        expect(() => sim.advance(-back)).toThrow(RangeError);
        expect(sim.now()).toBe(now);
        expect(sim.log.length).toBe(length);
        expect(sim.state).toBe(state);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('events are in time order and seq numbers have no gaps', () => {
    fc.assert(
      fc.property(scriptArb(), (script) => {
        const events = [...simulate(script).log];
        events.forEach((e, i) => {
          expect(e.seq).toBe(i);
          if (i > 0) expect(e.at).toBeGreaterThanOrEqual((events[i - 1] as { at: number }).at);
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('replay', () => {
  it('rebuilds a state that deep-equals the live state', () => {
    fc.assert(
      fc.property(fc.integer(), scriptArb(), (seed, script) => {
        const live = simulate(script, { seed });
        expect(Simulation.replay(live.log).state).toEqual(live.state);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('continues exactly as the original would: same agenda, same random streams', () => {
    fc.assert(
      fc.property(fc.integer(), scriptArb(15), scriptArb(15), (seed, before, after) => {
        const original = simulate(before, { seed });
        const replayed = Simulation.replay(original.log);
        expect(replayed.now()).toBe(original.now());
        runScript(original, after);
        runScript(replayed, after);
        expect(replayed.toJSONL()).toBe(original.toJSONL());
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('stateAt(t) equals a replay of the log prefix up to t, from any snapshot spacing', () => {
    fc.assert(
      fc.property(
        scriptArb(),
        fc.integer({ min: 1, max: 50 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (script, every, fraction) => {
          const sim = simulate(script, { snapshotEvery: every });
          const start = sim.log.get(0)?.at as number;
          const t = start + Math.floor((sim.now() - start) * fraction);
          const prefix = [...sim.log].filter((e) => e.at <= t);
          expect(sim.stateAt(t)).toEqual(Simulation.replay(prefix).state);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('JSON Lines', () => {
  it('export then import round-trips the log and the state', () => {
    fc.assert(
      fc.property(fc.integer(), scriptArb(), (seed, script) => {
        const sim = simulate(script, { seed });
        const { simulation, tornLastLine } = Simulation.fromJSONL(sim.toJSONL());
        expect(tornLastLine).toBeUndefined();
        expect(simulation.toJSONL()).toBe(sim.toJSONL());
        expect(simulation.state).toEqual(sim.state);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('reports and ignores a torn last line, never applying half an event', () => {
    const sim = simulate([
      { kind: 'createProject' },
      { kind: 'advance', ms: 600_000 },
      { kind: 'createProject' },
    ]);
    const text = sim.toJSONL();
    const lines = text.trimEnd().split('\n');
    const torn = `${lines.slice(0, -1).join('\n')}\n${(lines.at(-1) as string).slice(0, 25)}`;
    const { simulation, tornLastLine } = Simulation.fromJSONL(torn);
    expect(tornLastLine?.line).toBe(lines.length);
    expect(tornLastLine?.reason).toMatch(/incomplete last line/);
    expect(simulation.log.length).toBe(lines.length - 1);
    expect(simulation.state).toEqual(Simulation.replay(sim.log.slice(0, lines.length - 1)).state);
    expect(simulation.state).not.toEqual(sim.state);
  });

  it('refuses a log with a bad line in the middle, naming the line', () => {
    const lines = simulate([{ kind: 'createProject' }])
      .toJSONL()
      .trimEnd()
      .split('\n');
    lines[2] = '{"type": "BranchCreated", "at": 1';
    expect(() => Simulation.fromJSONL(`${lines.join('\n')}\n`)).toThrow(/line 3: not JSON/);
  });

  it.each([
    ['an empty log', '', /must start with SimulationStarted/],
    [
      'a log without header',
      '{"type":"ProjectCreated","at":0,"seq":0}\n',
      /must start with SimulationStarted/,
    ],
    [
      'an unknown event type',
      'HEADER\n{"type":"Teleported","at":1767571200000,"seq":1}\n',
      /line 2: unknown event type "Teleported"/,
    ],
    [
      'a gap in seq',
      'HEADER\n{"type":"ProjectCreated","at":1767571200000,"seq":5}\n',
      /line 2: .*seq 5 where 1 was expected/,
    ],
    [
      'time going back',
      'HEADER\n{"type":"ProjectCreated","at":1,"seq":1}\n',
      /line 2: .*earlier than the event before/,
    ],
    [
      'an event missing its fields',
      'HEADER\n{"type":"BranchCreated","at":1767571200000,"seq":1}\n',
      /line 2: event BranchCreated could not be applied/,
    ],
    ['a non-object line', 'HEADER\n[1,2]\n', /line 2: an event must be a JSON object/],
  ])('refuses %s with a clear error', (_name, text, message) => {
    const header = new Simulation().log.get(0);
    expect(() => Simulation.fromJSONL(text.replace('HEADER', JSON.stringify(header)))).toThrow(
      message,
    );
  });
});
