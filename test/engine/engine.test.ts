import { describe, expect, it } from 'vitest';
import { ClockError, Engine, ReentrancyError, StepLimitError } from '../../src/engine/index.js';
import { tickModel, type TickCommand } from '../support/tickModel.js';

const START = Date.UTC(2026, 0, 5);
const newEngine = (stepLimit?: number) =>
  new Engine(tickModel, {
    seed: 7,
    start: START,
    config: {},
    snapshotEvery: 4,
    ...(stepLimit === undefined ? {} : { stepLimit }),
  });
const arm = (name: string, every: number, times: number, background = false): TickCommand => ({
  type: 'Arm',
  name,
  every,
  times,
  background,
});

describe('Engine run loops', () => {
  it('fires timers due within an advance, in (due, seq) order, and stamps their time', () => {
    const engine = newEngine();
    engine.execute(arm('a', 10, 3));
    engine.execute(arm('b', 15, 2));
    engine.advanceTo(START + 30);
    // At +30 both fire; b's timer was scheduled at +15, a's at +20, so b has the lower seq and goes first.
    const expected = [
      `a@${START + 10}`,
      `b@${START + 15}`,
      `a@${START + 20}`,
      `b@${START + 30}`,
      `a@${START + 30}`,
    ];
    expect(engine.state.fired).toEqual(expected);
    expect(engine.now).toBe(START + 30);
  });

  it('ignores a timer that no longer applies when it fires', () => {
    const engine = newEngine();
    engine.execute({ type: 'Expect', name: 'x', at: START + 100 });
    engine.execute({ type: 'Expect', name: 'x', at: START + 200 });
    engine.advanceTo(START + 300);
    expect(engine.state.fired).toEqual([`guard:x@${START + 200}`]);
  });

  it('throws a clear StepLimitError instead of hanging on a timer that re-arms at the same instant', () => {
    const engine = newEngine(1_000);
    engine.execute(arm('loop', 0, Infinity));
    expect(() => engine.advanceTo(START + 1)).toThrow(StepLimitError);
    expect(() => engine.advanceTo(START + 1)).toThrow(/re-arm itself forever/);
    // The engine stays consistent and usable: the log and state agree.
    expect(engine.state.ticks).toBe(engine.log.length - 2);
    expect(() => engine.runUntilIdle({ stepLimit: 10 })).toThrow(StepLimitError);
  });

  it('runUntilIdle stops when only background work is left, without jumping to it', () => {
    const engine = newEngine();
    engine.execute(arm('heartbeat', 7, Infinity, true));
    engine.execute(arm('job', 10, 3));
    engine.runUntilIdle();
    expect(engine.now).toBe(START + 30);
    expect(engine.state.fired.filter((f) => f.startsWith('job'))).toHaveLength(3);
    expect(engine.state.fired.filter((f) => f.startsWith('heartbeat'))).toHaveLength(4);
    expect(engine.pending.foreground).toBe(0);
    expect(engine.pending.timers).toBe(1);
    engine.runUntilIdle();
    expect(engine.now).toBe(START + 30);
  });

  it('runUntilState stops as soon as the condition holds, and refuses to wait on nothing', () => {
    const engine = newEngine();
    engine.execute(arm('a', 10, 5));
    engine.runUntilState((s) => s.ticks >= 2);
    expect(engine.now).toBe(START + 20);
    expect(() => engine.runUntilState((s) => s.ticks >= 99)).toThrow(/no work is pending/);
    expect(engine.state.ticks).toBe(5);
  });

  it('refuses to move the clock back, and leaves everything as it was', () => {
    const engine = newEngine();
    engine.execute(arm('a', 10, 1));
    engine.advanceTo(START + 50);
    const { length } = engine.log;
    expect(() => engine.advanceTo(START + 49)).toThrow(ClockError);
    expect(() => engine.advanceTo(Number.NaN)).toThrow(ClockError);
    expect(engine.now).toBe(START + 50);
    expect(engine.log.length).toBe(length);
  });

  it('leaves state and log untouched when a command is refused', () => {
    const engine = newEngine();
    engine.execute(arm('a', 10, 1));
    const before = engine.state;
    const result = engine.execute({ type: 'Refuse' });
    expect(result).toEqual({ ok: false, error: 'refused' });
    expect(engine.state).toBe(before);
    expect(engine.log.length).toBe(2);
  });

  it('publishes every event synchronously and in order, and a state after each public call', () => {
    const engine = newEngine();
    const seen: number[] = [];
    const states: number[] = [];
    engine.events$.subscribe((e) => seen.push(e.seq));
    engine.state$.subscribe((s) => states.push(s.ticks));
    engine.execute(arm('a', 10, 3));
    expect(seen).toEqual([1]);
    engine.advanceTo(START + 100);
    // three ticks, then the clock mark: the call left time at +100, past the last tick at +30
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(engine.log.get(5)).toEqual({ type: 'ClockAdvanced', at: START + 100, seq: 5 });
    expect(states).toEqual([0, 0, 3]);
  });

  it('does not let a subscriber drive the simulation mid-step', () => {
    const engine = newEngine();
    const errors: unknown[] = [];
    engine.events$.subscribe((e) => {
      if (e.type !== 'Ticked') return;
      try {
        engine.advanceTo(engine.now + 1);
      } catch (error) {
        errors.push(error);
      }
    });
    engine.execute(arm('a', 10, 2));
    engine.advanceTo(START + 100);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toBeInstanceOf(ReentrancyError);
    expect(engine.state.ticks).toBe(2);
    expect(engine.now).toBe(START + 100);
  });

  it('keeps immutable snapshots: a published state never changes afterwards', () => {
    const engine = newEngine();
    engine.execute(arm('a', 10, 3));
    const early = engine.state;
    engine.advanceTo(START + 100);
    expect(early.ticks).toBe(0);
    expect(Object.isFrozen(engine.state)).toBe(true);
  });

  it('answers stateAt for past instants and refuses the future and the time before start', () => {
    const engine = newEngine();
    engine.execute(arm('a', 10, 10));
    engine.advanceTo(START + 100);
    for (let t = START; t <= START + 100; t += 5) {
      expect(engine.stateAt(t).ticks).toBe(Math.floor((t - START) / 10));
    }
    expect(() => engine.stateAt(START + 101)).toThrow(/future/);
    expect(() => engine.stateAt(START - 1)).toThrow(/before the simulation started/);
  });
});
