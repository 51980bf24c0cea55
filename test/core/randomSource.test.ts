import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RandomSource } from '../../src/engine/index.js';
import { ID_PATTERN, newId } from '../../src/core/ids.js';

const draws = (source: RandomSource, n = 8) =>
  Array.from({ length: n }, () => source.int(0, 1_000_000));

describe('RandomSource', () => {
  it('gives the same draws for the same derivation key', () => {
    fc.assert(
      fc.property(fc.integer(), fc.string(), fc.nat(), (seed, purpose, index) => {
        expect(draws(RandomSource.derive(seed, purpose, index))).toEqual(
          draws(RandomSource.derive(seed, purpose, index)),
        );
      }),
    );
  });

  it('gives independent streams per purpose, index and seed', () => {
    const base = draws(RandomSource.derive(1, 'ids', 0));
    expect(draws(RandomSource.derive(1, 'latency', 0))).not.toEqual(base);
    expect(draws(RandomSource.derive(1, 'ids', 1))).not.toEqual(base);
    expect(draws(RandomSource.derive(2, 'ids', 0))).not.toEqual(base);
  });

  it('keeps draws inside their ranges', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: -1000, max: 1000 }),
        fc.nat(1000),
        (seed, min, span) => {
          const source = RandomSource.fromSeed(seed);
          const value = source.int(min, min + span);
          expect(value).toBeGreaterThanOrEqual(min);
          expect(value).toBeLessThanOrEqual(min + span);
          const f = source.float();
          expect(f).toBeGreaterThanOrEqual(0);
          expect(f).toBeLessThan(1);
          expect(source.exponential(10)).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });

  it('makes ids in the formats of the public API', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const source = RandomSource.fromSeed(seed);
        expect(newId.project(source)).toMatch(/^[a-z]+-[a-z]+-\d{6}$/);
        expect(newId.branch(source)).toMatch(/^br-[a-z]+-[a-z]+-\d{6}$/);
        expect(newId.endpoint(source)).toMatch(/^ep-[a-z]+-[a-z]+-\d{6}$/);
        const uuid = newId.operation(source);
        expect(uuid).toMatch(
          /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
        );
        for (const id of [newId.endpoint(source), uuid]) expect(id).toMatch(ID_PATTERN);
      }),
    );
  });
});
