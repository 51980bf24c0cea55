/**
 * fast-check arbitraries of the request bodies a public-schema operation accepts, read from the
 * schema itself: objects with their declared fields (required ones always, the others sometimes),
 * strings of their pattern, length or format, numbers at and inside their bounds (past JSON's when
 * only a minimum is given: an in-process body may hold `Infinity`), enums, maps and lists. `hints`
 * give some fields values that mean something to the simulation (real ids, role names) as well.
 */
import fc from 'fast-check';
import type { OpenApiDocument } from '../../src/schema/openApiDocument.js';

type Schema = Readonly<Record<string, unknown>>;

/** Extra values for fields by name, mixed with the schema's own. */
export type FieldHints = Readonly<Record<string, fc.Arbitrary<unknown>>>;

/** Bodies the schema of `method pattern` accepts (`undefined` too when the body is optional). */
export function acceptedBodies(
  doc: OpenApiDocument,
  method: string,
  pattern: string,
  hints: FieldHints = {},
): fc.Arbitrary<unknown> {
  const operation = doc.paths[pattern]?.[method.toLowerCase()] as
    | { requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> } }
    | undefined;
  const schema = operation?.requestBody?.content?.['application/json']?.schema;
  if (schema === undefined) throw new Error(`${method} ${pattern} declares no JSON body`);
  const body = valueOf(doc, schema, hints, 0);
  return operation?.requestBody?.required === true ? body : fc.option(body, { nil: undefined });
}

function valueOf(
  doc: OpenApiDocument,
  schema: Schema,
  hints: FieldHints,
  depth: number,
): fc.Arbitrary<unknown> {
  if (typeof schema['$ref'] === 'string')
    return valueOf(doc, resolve(doc, schema['$ref']), hints, depth);
  const value = plainValueOf(doc, schema, hints, depth);
  return schema['nullable'] === true ? fc.oneof(value, fc.constant(null)) : value;
}

function plainValueOf(
  doc: OpenApiDocument,
  schema: Schema,
  hints: FieldHints,
  depth: number,
): fc.Arbitrary<unknown> {
  if (Array.isArray(schema['allOf']))
    return fc
      .tuple(...(schema['allOf'] as Schema[]).map((part) => valueOf(doc, part, hints, depth)))
      .map((parts) => Object.assign({}, ...parts) as unknown);
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
  switch (schema['type']) {
    case 'object':
      return objectOf(doc, schema, hints, depth);
    case 'array':
      return fc.array(valueOf(doc, schema['items'] as Schema, hints, depth + 1), {
        maxLength: depth > 2 ? 0 : 3,
      });
    case 'string':
      return stringOf(schema);
    case 'integer':
      return integerOf(schema);
    case 'number':
      return numberOf(schema);
    case 'boolean':
      return fc.boolean();
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

function objectOf(
  doc: OpenApiDocument,
  schema: Schema,
  hints: FieldHints,
  depth: number,
): fc.Arbitrary<unknown> {
  const properties = (schema['properties'] ?? {}) as Readonly<Record<string, Schema>>;
  const required = (schema['required'] ?? []) as readonly string[];
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) {
    const own = valueOf(doc, property, hints, depth + 1);
    const hint = hints[name];
    fields[name] =
      hint === undefined
        ? own
        : fc.oneof({ arbitrary: hint, weight: 4 }, { arbitrary: own, weight: 1 });
  }
  const declared = fc.record(fields, { requiredKeys: required.filter((key) => key in fields) });
  const extra = schema['additionalProperties'];
  if (typeof extra !== 'object' || extra === null) return declared;
  const maxKeys = typeof schema['maxProperties'] === 'number' ? schema['maxProperties'] : 4;
  const map = fc.dictionary(
    fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor')),
    valueOf(doc, extra as Schema, hints, depth + 1),
    { maxKeys: Math.min(maxKeys, 4) },
  );
  return Object.keys(properties).length === 0 ? map : declared;
}

function stringOf(schema: Schema): fc.Arbitrary<string> {
  if (typeof schema['pattern'] === 'string')
    return fc.stringMatching(new RegExp(schema['pattern']));
  if (schema['format'] === 'date-time')
    return fc.oneof(
      fc
        .date({
          min: new Date('1970-01-01T00:00:00Z'),
          max: new Date('2100-01-01T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((date) => date.toISOString()),
      // Date-times the format allows that a date parser may not read.
      fc.constantFrom('2016-12-31T23:59:60Z', '2024-02-26 12:00:00z', '9999-12-31T23:59:59-23:59'),
    );
  const minLength = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
  const maxLength = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : 300;
  return fc
    .string({ minLength, maxLength, unit: 'grapheme-composite' })
    .filter((text) => [...text].length >= minLength && [...text].length <= maxLength);
}

function integerOf(schema: Schema): fc.Arbitrary<number> {
  const min = typeof schema['minimum'] === 'number' ? schema['minimum'] : Number.MIN_SAFE_INTEGER;
  const max = typeof schema['maximum'] === 'number' ? schema['maximum'] : Number.MAX_SAFE_INTEGER;
  return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max));
}

function numberOf(schema: Schema): fc.Arbitrary<number> {
  const min = typeof schema['minimum'] === 'number' ? schema['minimum'] : -Number.MAX_VALUE;
  const max = typeof schema['maximum'] === 'number' ? schema['maximum'] : Infinity;
  const inside = [min, 0.25, 0.5, 1, 2, 16, 56, max].filter((n) => n >= min && n <= max);
  return fc.oneof(
    { arbitrary: fc.constantFrom(...inside), weight: 3 },
    { arbitrary: fc.double({ min, max, noNaN: true }), weight: 1 },
  );
}

function resolve(doc: OpenApiDocument, ref: string): Schema {
  const found = ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
  if (found === undefined) throw new Error(`unresolved ${ref}`);
  return found as Schema;
}
