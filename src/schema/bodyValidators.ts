/**
 * Request body validators compiled from an OpenAPI document with Ajv: one per operation, compiled on
 * its first body and kept. A refusal names the field (`endpoints[0].type: is required`). Ajv itself
 * is loaded by the first validator made: a simulation that is never sent a body never loads it.
 */
import { createRequire } from 'node:module';
import type * as AjvModule from 'ajv';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { OpenApiDocument } from './openApiDocument.js';
import { withOpenApiFormats } from './openApiFormats.js';

interface RequestBody {
  readonly required?: boolean;
  readonly content?: Readonly<Record<string, unknown>>;
}

/** What an operation expects of its body: nothing, or a validator and whether a body must come. */
type BodyRule = { readonly validate: ValidateFunction; readonly required: boolean } | null;

/** The body validators of every operation of one document. */
export class BodyValidators {
  readonly #ajv: Ajv;
  /** Rules by pattern, then method: both are the route table's own strings, hashed once. */
  readonly #rules = new Map<string, Map<string, BodyRule>>();

  constructor(readonly doc: OpenApiDocument) {
    // OpenAPI keywords (`example`, `x-…`, `discriminator`) are not JSON Schema: not strict. No
    // defaults, coercion or removal: a body is checked, never changed.
    this.#ajv = withOpenApiFormats(
      new (createRequire(import.meta.url)('ajv') as typeof AjvModule).Ajv({
        strict: false,
        allErrors: false,
        validateFormats: true,
        logger: false,
      }),
    );
    this.#ajv.addSchema(doc, 'openapi');
  }

  /** Why `body` is refused as the body of `method pattern`, or `undefined`. */
  problem(method: string, pattern: string, body: unknown): string | undefined {
    const rule = this.#rule(method, pattern);
    if (rule === null) return undefined;
    if (body === undefined) return rule.required ? 'body: is required' : undefined;
    if (rule.validate(body)) return undefined;
    const error = rule.validate.errors?.[0];
    return error === undefined ? 'body: does not match the schema' : describe(error);
  }

  /** Compiles the validator of `method pattern` now, if it is not compiled yet. */
  compile(method: string, pattern: string): void {
    this.#rule(method, pattern);
  }

  #rule(method: string, pattern: string): BodyRule {
    let byMethod = this.#rules.get(pattern);
    if (byMethod === undefined) this.#rules.set(pattern, (byMethod = new Map<string, BodyRule>()));
    let rule = byMethod.get(method);
    if (rule === undefined) {
      rule = this.#compile(method.toLowerCase(), pattern);
      byMethod.set(method, rule);
    }
    return rule;
  }

  #compile(method: string, pattern: string): BodyRule {
    const operation = this.doc.paths[pattern]?.[method] as
      { readonly requestBody?: RequestBody } | undefined;
    const body = operation?.requestBody;
    if (body?.content?.['application/json'] === undefined) return null;
    const pointer = `openapi#/paths/${escape(pattern)}/${method}/requestBody/content/application~1json/schema`;
    return { validate: this.#ajv.compile({ $ref: pointer }), required: body.required === true };
  }
}

/** A JSON pointer segment. */
function escape(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** One Ajv error as `field.path: what is wrong`. */
function describe(error: ErrorObject): string {
  const at = fieldPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${join(at, String(params['missingProperty']))}: is required`;
    case 'additionalProperties':
      return `${join(at, String(params['additionalProperty']))}: is not a known field`;
    case 'enum':
      return `${at}: must be one of ${(params['allowedValues'] as unknown[]).join(', ')}`;
    default:
      return `${at}: ${error.message ?? 'does not match the schema'}`;
  }
}

/** `/endpoints/0/type` → `endpoints[0].type`; the root is `body`. */
function fieldPath(instancePath: string): string {
  if (instancePath === '') return 'body';
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : join(path, part)), '');
}

function join(path: string, field: string): string {
  return path === '' || path === 'body' ? field : `${path}.${field}`;
}
