/**
 * The process-wide cache of parsed log JSON: a text gives a deeply frozen value equal to what
 * `JSON.parse` gives, the same value for the same text, however many texts the process has read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frozenJson } from '../../src/engine/frozenJson.js';

/** Whether `value` and everything it holds is frozen. */
function deeplyFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(deeplyFrozen);
}

describe('frozenJson', () => {
  it('gives the parsed value, deeply frozen, the same one for the same text', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (json) => {
        const text = JSON.stringify(json);
        const value = frozenJson(text);
        expect(value).toEqual(JSON.parse(text));
        expect(deeplyFrozen(value)).toBe(true);
        expect(frozenJson(`${text}`)).toBe(value);
      }),
    );
  });

  it('stays right past the number of texts it keeps', () => {
    for (let i = 0; i < 10_000; i++) expect(frozenJson(`{"n":${i}}`)).toEqual({ n: i });
    const long = JSON.stringify({ text: 'x'.repeat(10_000) });
    expect(frozenJson(long)).toEqual(JSON.parse(long));
  });
});
