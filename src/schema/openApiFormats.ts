/**
 * The formats the public schema uses beyond those ajv-formats knows: `uint64` (a whole number of 0
 * or more that fits 64 bits unsigned, as the service's counters are) and `int` (a whole number).
 * Registered so Ajv checks them instead of warning that it ignores them.
 */
import { createRequire } from 'node:module';
import type { Ajv } from 'ajv';

const UINT64_MAX = 2 ** 64 - 1;

/** Adds ajv-formats' formats and the schema's own to `ajv`; returns it. */
export function withOpenApiFormats(ajv: Ajv): Ajv {
  // Loaded with the first Ajv (see bodyValidators.ts): its module is CommonJS, its export the function.
  const addFormats = createRequire(import.meta.url)('ajv-formats') as (ajv: Ajv) => void;
  addFormats(ajv);
  ajv.addFormat('uint64', {
    type: 'number',
    validate: (value: number) => Number.isInteger(value) && value >= 0 && value <= UINT64_MAX,
  });
  ajv.addFormat('int', { type: 'number', validate: (value: number) => Number.isInteger(value) });
  return ajv;
}
