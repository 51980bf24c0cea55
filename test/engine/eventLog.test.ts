import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventLog, type LoggedEvent } from '../../src/engine/index.js';

const valueArb = fc.oneof(
  fc.string(),
  fc.uuid({ version: 4 }),
  fc.uuid().map((u) => u.toUpperCase()),
  // near-miss UUIDs (one character that is not lower-case hex, or a dash out of place) stay strings
  fc
    .tuple(fc.uuid(), fc.nat({ max: 35 }), fc.constantFrom('g', 'G', '/', ':', '`', 'é', '-', '0'))
    .map(([u, at, c]) => u.slice(0, at) + c + u.slice(at + 1)),
  // ids like c-1234 are packed; near misses (leading zeros, too long, upper case) must survive too
  fc
    .tuple(fc.stringMatching(/^[a-zA-Z]{0,5}$/), fc.constantFrom('-', '_'), fc.nat(), fc.boolean())
    .map(([prefix, dash, n, zero]) => `${prefix}${dash}${zero ? '0' : ''}${n}`),
  fc.constantFrom('c-0', 'c-00', 'c-4294967295', 'c-4294967296', 'abcd-1', 'abcde-1', 'c-', '-1'),
  fc.integer(),
  fc.nat(),
  fc.double(),
  fc.constantFrom(0, -0, 2 ** 32, 2 ** 32 - 1, Number.MAX_SAFE_INTEGER, 0.25, Infinity, -Infinity),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
);

const eventArb = fc
  .tuple(
    fc.constantFrom('A', 'B', 'C'),
    fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), valueArb, { maxKeys: 6 }),
  )
  .map(([type, payload]) => {
    const rest = Object.fromEntries(
      Object.entries(payload).filter(([key]) => key !== 'at' && key !== 'seq' && key !== 'type'),
    );
    return { type, ...rest };
  });

describe('EventLog (compact encoding)', () => {
  it('gives back every event exactly as appended: values, kinds and key order', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 60 }), (payloads) => {
        const log = new EventLog<LoggedEvent>();
        const originals = payloads.map((payload, seq) => ({ ...payload, at: 1_000 + seq, seq }));
        for (const event of originals) log.append(event);
        expect(log.length).toBe(originals.length);
        originals.forEach((original, seq) => {
          const decoded = log.get(seq) as unknown as Record<string, unknown>;
          expect(Object.keys(decoded)).toEqual(Object.keys(original));
          for (const key of Object.keys(original)) {
            expect(
              Object.is(decoded[key], (original as Record<string, unknown>)[key]) ||
                JSON.stringify(decoded[key]) ===
                  JSON.stringify((original as Record<string, unknown>)[key]),
            ).toBe(true);
          }
        });
        expect([...log].map((e) => JSON.stringify(e))).toEqual(
          originals.map((e) => JSON.stringify(e)),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('gives back events of one type whose shape changes from one to the next (the last-shape cache)', () => {
    // Few keys, always in the same order, values of every kind: consecutive events of a type share
    // or differ in shape by one key or one kind, which is what the codec's per-type cache compares.
    const sameTypeArb = fc
      .tuple(
        fc.constantFrom('A', 'B'),
        fc.subarray(['x', 'y', 'z']),
        fc.array(valueArb, { minLength: 3, maxLength: 3 }),
      )
      .map(([type, keys, values]) => ({
        type,
        ...Object.fromEntries(keys.map((key, i) => [key, values[i]])),
      }));
    fc.assert(
      fc.property(fc.array(sameTypeArb, { maxLength: 80 }), (payloads) => {
        const log = new EventLog<LoggedEvent>();
        const originals = payloads.map((payload, seq) => ({ ...payload, at: 5_000 + seq, seq }));
        for (const event of originals) log.append(event);
        expect([...log].map((e) => JSON.stringify(e))).toEqual(
          originals.map((e) => JSON.stringify(e)),
        );
        originals.forEach((original, seq) => {
          const decoded = log.get(seq) as unknown as Record<string, unknown>;
          for (const [key, value] of Object.entries(original))
            expect(
              Object.is(decoded[key], value) ||
                JSON.stringify(decoded[key]) === JSON.stringify(value),
            ).toBe(true);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('gives back every time exactly: jumps past 2^32 ms, fractions, repeats and steps back', () => {
    const atArb = fc.oneof(
      fc.integer({ min: 0, max: 10_000 }),
      fc.constantFrom(2 ** 32, 2 ** 32 + 1, 60 * 86_400_000),
      fc.double({ min: -1e6, max: 1e6, noNaN: true }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: -1e12, max: 1e12 }),
        fc.array(atArb, { maxLength: 100 }),
        (start, steps) => {
          const log = new EventLog<LoggedEvent>();
          let at = start;
          const ats = steps.map((step) => (at += step));
          ats.forEach((t, seq) => log.append({ type: 'T', at: t, seq } as LoggedEvent));
          expect(ats.map((_, seq) => log.atOf(seq))).toEqual(ats);
          expect([...log].map((e) => e.at)).toEqual(ats);
          expect(ats.map((_, seq) => log.get(seq)?.at)).toEqual(ats);
        },
      ),
    );
  });

  it('keeps -0 and NaN distinct from 0', () => {
    const log = new EventLog<LoggedEvent>();
    log.append({ type: 'X', a: -0, b: Number.NaN, c: 0, at: 0, seq: 0 } as LoggedEvent);
    const event = log.get(0) as unknown as { a: number; b: number; c: number };
    expect(Object.is(event.a, -0)).toBe(true);
    expect(Number.isNaN(event.b)).toBe(true);
    expect(Object.is(event.c, 0)).toBe(true);
  });

  it('refuses an event out of sequence', () => {
    const log = new EventLog<LoggedEvent>();
    expect(() => log.append({ type: 'X', at: 0, seq: 1 })).toThrow(/seq 1 where 0 was expected/);
    expect(log.length).toBe(0);
  });

  it('stores typical control-plane events in a few bytes each', () => {
    const log = new EventLog<LoggedEvent>();
    const n = 100_000;
    for (let seq = 0; seq < n; seq++) {
      log.append({
        type: 'ComputeStateChanged',
        projectId: `proud-snowflake-${seq % 1000}`,
        endpointId: `ep-damp-paper-${seq % 1000}`,
        currentState: seq % 2 === 0 ? 'active' : 'idle',
        pendingState: null,
        at: 1_767_571_200_000 + seq,
        seq,
      } as LoggedEvent);
    }
    const { bytes } = log.footprint;
    // 1 (shape) + 1 (time step) + 2 + 2 + 1 (three interned strings) + 0.5 (checkpoints of 32)
    expect(bytes / n).toBeLessThan(10);
  });

  it('finds the first event after an instant by binary search', () => {
    const log = new EventLog<LoggedEvent>();
    [0, 5, 5, 5, 9].forEach((at, seq) => log.append({ type: 'X', at, seq }));
    expect([
      log.firstAfter(-1),
      log.firstAfter(0),
      log.firstAfter(5),
      log.firstAfter(8),
      log.firstAfter(9),
    ]).toEqual([0, 1, 4, 4, 5]);
  });

  it('finds the first event after an instant across checkpoints, as a linear scan would', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 200 }),
        fc.integer({ min: -10, max: 6_000 }),
        (steps, t) => {
          const log = new EventLog<LoggedEvent>();
          let at = 0;
          const ats = steps.map((step) => (at += step));
          ats.forEach((time, seq) => log.append({ type: 'X', at: time, seq }));
          const expected = ats.findIndex((time) => time > t);
          expect(log.firstAfter(t)).toBe(expected === -1 ? ats.length : expected);
        },
      ),
    );
  });
});
