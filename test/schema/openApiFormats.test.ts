/** The public schema's own formats are checked, not ignored with a warning. */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { withOpenApiFormats } from '../../src/schema/openApiFormats.js';

describe('withOpenApiFormats', () => {
  const warnings: unknown[] = [];
  const logger = { log: () => undefined, warn: (w: unknown) => warnings.push(w), error: () => {} };
  const ajv = withOpenApiFormats(new Ajv({ strict: false, validateFormats: true, logger }));

  it('checks uint64: whole numbers from 0 to 2^64-1', () => {
    const valid = ajv.compile({ type: 'number', format: 'uint64' });
    expect([0, 1, 2 ** 53, 2 ** 64 - 1].map((n) => valid(n))).toEqual([true, true, true, true]);
    expect([-1, 0.5, 2 ** 65].map((n) => valid(n))).toEqual([false, false, false]);
    expect(warnings).toEqual([]);
  });

  it('checks int: whole numbers', () => {
    const valid = ajv.compile({ type: 'integer', format: 'int' });
    expect(valid(-3)).toBe(true);
    expect(valid(1.5)).toBe(false);
    expect(warnings).toEqual([]);
  });
});
