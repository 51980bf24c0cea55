/**
 * Validates response bodies against the public v2 schema shipped in @neondatabase/api-client: finds
 * the schema of a route's status (or the `default` error schema) and checks the body with Ajv.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import { load } from 'js-yaml';
import { withOpenApiFormats } from '../../src/schema/openApiFormats.js';

type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>;
      }
    >
  >;
  components: { responses: Record<string, { content?: Record<string, { schema: unknown }> }> };
};

const require = createRequire(import.meta.url);
const file = require.resolve('@neondatabase/api-client/public-v2-for-users.gen.yaml');
const doc = load(readFileSync(file, 'utf8')) as Doc;
const ajv = withOpenApiFormats(new Ajv({ strict: false, allErrors: true, validateFormats: true }));
ajv.addSchema(doc as object, 'openapi');
const cache = new Map<string, ValidateFunction | null>();

const escape = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

/** The validator for `method pattern → status`, or null when the schema declares no JSON body. */
function validatorFor(method: string, pattern: string, status: number): ValidateFunction | null {
  const key = `${method} ${pattern} ${status}`;
  if (cache.has(key)) return cache.get(key) as ValidateFunction | null;
  const operation = doc.paths[pattern]?.[method.toLowerCase()];
  if (operation === undefined) throw new Error(`the public schema has no ${method} ${pattern}`);
  const code = String(status) in operation.responses ? String(status) : 'default';
  const response = operation.responses[code];
  if (response === undefined)
    throw new Error(`the public schema declares no ${code} for ${method} ${pattern}`);
  let pointer: string;
  let content: Record<string, { schema: unknown }> | undefined;
  if (response.$ref !== undefined) {
    const name = response.$ref.split('/').at(-1) as string;
    content = doc.components.responses[name]?.content;
    pointer = `openapi#/components/responses/${escape(name)}/content/application~1json/schema`;
  } else {
    content = response.content;
    pointer = `openapi#/paths/${escape(pattern)}/${method.toLowerCase()}/responses/${code}/content/application~1json/schema`;
  }
  const validate =
    content?.['application/json'] === undefined ? null : ajv.compile({ $ref: pointer });
  cache.set(key, validate);
  return validate;
}

/** Checks a response body against the schema; returns the problems (empty when it conforms). */
export function schemaProblems(
  method: string,
  pattern: string,
  status: number,
  body: unknown,
): string[] {
  const validate = validatorFor(method, pattern, status);
  if (validate === null) return body === undefined ? [] : [`${status} declares no body, got one`];
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (e) => `${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
  );
}
