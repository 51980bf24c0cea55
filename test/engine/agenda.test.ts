import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Agenda } from '../../src/engine/index.js';

type Op =
  | { push: true; due: number; background: boolean; key: string | undefined; variant: number }
  | { push: false };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      push: fc.constant(true as const),
      due: fc.integer({ min: 0, max: 50 }),
      background: fc.boolean(),
      key: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined }),
      variant: fc.integer({ min: 0, max: 1 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ push: fc.constant(false as const) }) },
);

describe('Agenda', () => {
  it('pops in the order of a reference sort on (due, seq), whatever the interleaving', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 3000 }), (ops) => {
        const agenda = new Agenda<{ variant: number }>();
        type Entry = {
          due: number;
          seq: number;
          background: boolean;
          variant: number;
          key?: string;
        };
        let reference: Entry[] = [];
        for (const op of ops) {
          if (op.push) {
            // A keyed timer replaces the pending one of its key, unless that one is the same timer
            // (equal fields, same kind of work) due then too.
            const pending = reference.find((t) => op.key !== undefined && t.key === op.key);
            const seq = agenda.push(op.due, { variant: op.variant }, op.background, op.key);
            if (
              pending !== undefined &&
              pending.due === op.due &&
              pending.background === op.background &&
              pending.variant === op.variant
            ) {
              expect(seq).toBe(pending.seq);
            } else {
              if (pending !== undefined) reference = reference.filter((t) => t !== pending);
              const entry = { due: op.due, seq, background: op.background, variant: op.variant };
              reference.push(op.key === undefined ? entry : { ...entry, key: op.key });
            }
          } else {
            reference.sort((a, b) => a.due - b.due || a.seq - b.seq);
            const expected = reference.shift();
            const popped = agenda.pop();
            expect(
              popped === undefined
                ? undefined
                : { due: popped.due, seq: popped.seq, background: popped.background },
            ).toEqual(
              expected === undefined
                ? undefined
                : { due: expected.due, seq: expected.seq, background: expected.background },
            );
          }
          expect(agenda.size).toBe(reference.length);
          expect(agenda.foregroundCount).toBe(reference.filter((t) => !t.background).length);
        }
        reference = reference.sort((a, b) => a.due - b.due || a.seq - b.seq);
        for (const expected of reference) {
          expect(agenda.peekDue()).toBe(expected.due);
          expect(agenda.pop()?.seq).toBe(expected.seq);
        }
        expect(agenda.pop()).toBeUndefined();
        expect(agenda.peekDue()).toBe(Infinity);
      }),
    );
  });

  it('fires timers due at the same instant in scheduling order', () => {
    const agenda = new Agenda<string>();
    for (const name of ['a', 'b', 'c', 'd']) agenda.push(10, name);
    agenda.push(5, 'first');
    expect([1, 2, 3, 4, 5].map(() => agenda.popTimer())).toEqual(['first', 'a', 'b', 'c', 'd']);
  });

  it('discards only timers strictly before an instant', () => {
    const agenda = new Agenda<number>();
    for (const due of [5, 1, 9, 3, 7, 3]) agenda.push(due, due);
    agenda.discardBefore(5);
    expect(agenda.size).toBe(3);
    expect([agenda.popTimer(), agenda.popTimer(), agenda.popTimer()]).toEqual([5, 7, 9]);
  });

  it('keeps the reference order when replaced timers pile up and the heap is rebuilt', () => {
    type Step = { kind: 'keyed' | 'plain' | 'pop'; key: number; due: number };
    const stepArb: fc.Arbitrary<Step> = fc.record({
      kind: fc.constantFrom<Step['kind']>(...Array<'keyed'>(18).fill('keyed'), 'plain', 'pop'),
      key: fc.integer({ min: 0, max: 299 }),
      due: fc.integer({ min: 0, max: 1_000_000 }),
    });
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 4000, maxLength: 6000 }), (steps) => {
        const agenda = new Agenda<number>();
        // Live timers by sequence number, and the live one of each key.
        const live = new Map<number, { due: number; seq: number }>();
        const byKey = new Map<string, { due: number; seq: number }>();
        for (const step of steps) {
          if (step.kind === 'pop') {
            let first: { due: number; seq: number } | undefined;
            for (const timer of live.values())
              if (
                first === undefined ||
                timer.due < first.due ||
                (timer.due === first.due && timer.seq < first.seq)
              )
                first = timer;
            const popped = agenda.pop();
            expect(popped?.seq).toBe(first?.seq);
            if (first !== undefined) live.delete(first.seq);
            for (const [key, timer] of byKey) if (timer === first) byKey.delete(key);
            continue;
          }
          const key = step.kind === 'keyed' ? `k${step.key}` : undefined;
          const pending = key === undefined ? undefined : byKey.get(key);
          const seq = agenda.push(step.due, 0, false, key);
          if (pending !== undefined && pending.due === step.due) {
            expect(seq).toBe(pending.seq);
            continue;
          }
          if (pending !== undefined) live.delete(pending.seq);
          const timer = { due: step.due, seq };
          live.set(seq, timer);
          if (key !== undefined) byKey.set(key, timer);
        }
        expect(agenda.size).toBe(live.size);
        const rest = [...live.values()].sort((a, b) => a.due - b.due || a.seq - b.seq);
        expect(rest.map(() => agenda.pop()?.seq)).toEqual(rest.map((t) => t.seq));
      }),
      { numRuns: 5 },
    );
  });

  it('drops replaced timers in bulk and keeps the order of the rest', () => {
    const agenda = new Agenda<string>();
    // Each project's check is armed again and again further ahead; the plain timers stay.
    for (let round = 0; round < 100; round++)
      for (let project = 0; project < 50; project++)
        agenda.push(10_000 + round * 100 + project, `p${project}@${round}`, true, `p${project}`);
    for (let i = 0; i < 2000; i++) agenda.push(i * 7, `plain${i}`);
    expect(agenda.size).toBe(2050);
    expect(agenda.foregroundCount).toBe(2000);
    const fired: string[] = [];
    for (let timer = agenda.popTimer(); timer !== undefined; timer = agenda.popTimer())
      fired.push(timer);
    expect(fired).toEqual([
      ...Array.from({ length: 2000 }, (_, i) => `plain${i}`),
      ...Array.from({ length: 50 }, (_, project) => `p${project}@99`),
    ]);
  });

  it('grows past its initial capacity without losing order', () => {
    const agenda = new Agenda<number>();
    for (let i = 5000; i > 0; i--) agenda.push(i, i);
    let previous = 0;
    while (agenda.size > 0) {
      const value = agenda.popTimer() as number;
      expect(value).toBeGreaterThan(previous);
      previous = value;
    }
  });
});
