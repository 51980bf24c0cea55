/**
 * The formats the public schema uses beyond those ajv-formats knows: `uint64` (a whole number of 0
 * or more that fits 64 bits unsigned, as the service's counters are) and `int` (a whole number).
 * Registered so Ajv checks them instead of warning that it ignores them.
 */
import type { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => void;

const UINT64_MAX = 2 ** 64 - 1;

/** Adds ajv-formats' formats and the schema's own to `ajv`; returns it. */
export function withOpenApiFormats(ajv: Ajv): Ajv {
  addFormats(ajv);
  ajv.addFormat('uint64', {
    type: 'number',
    validate: (value: number) => Number.isInteger(value) && value >= 0 && value <= UINT64_MAX,
  });
  ajv.addFormat('int', { type: 'number', validate: (value: number) => Number.isInteger(value) });
  return ajv;
}
