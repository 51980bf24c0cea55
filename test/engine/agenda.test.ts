import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Agenda } from '../../src/engine/index.js';

type Op = { push: true; due: number; background: boolean } | { push: false };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      push: fc.constant(true as const),
      due: fc.integer({ min: 0, max: 50 }),
      background: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ push: fc.constant(false as const) }) },
);

describe('Agenda', () => {
  it('pops in the order of a reference sort on (due, seq), whatever the interleaving', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 3000 }), (ops) => {
        const agenda = new Agenda<string>();
        let reference: { due: number; seq: number; background: boolean }[] = [];
        for (const op of ops) {
          if (op.push) {
            const seq = agenda.push(op.due, `t${reference.length}`, op.background);
            reference.push({ due: op.due, seq, background: op.background });
          } else {
            reference.sort((a, b) => a.due - b.due || a.seq - b.seq);
            const expected = reference.shift();
            const popped = agenda.pop();
            expect(
              popped === undefined
                ? undefined
                : { due: popped.due, seq: popped.seq, background: popped.background },
            ).toEqual(expected);
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
