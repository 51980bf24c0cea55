/**
 * The public v2 schema at run time: read once per process, on first use, from the YAML that
 * `@neondatabase/api-client` ships (nothing of it is copied into computesim), and offered to the
 * REST surface as an `ApiContract`: its operations, and request bodies checked against it.
 */
import { createRequire } from 'node:module';
import type { load as loadYaml } from 'js-yaml';
import { cachedYaml } from './yamlCache.js';
import type { ApiContract, ContractOperation } from './apiContract.js';
import { BodyValidators } from './bodyValidators.js';
import type { OpenApiDocument } from './openApiDocument.js';

/** Where the schema comes from: the package and the file in it. */
export const PUBLIC_SCHEMA_FILE = '@neondatabase/api-client/public-v2-for-users.gen.yaml';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

let document: OpenApiDocument | undefined;
let contract: PublicContract | undefined;

/**
 * The parsed schema (read on the first call: about a tenth of a second of YAML with js-yaml, the
 * first time this copy of the schema is read; then from its JSON, see `cachedYaml`).
 */
export function publicSchemaDocument(): OpenApiDocument {
  if (document === undefined) {
    const file = createRequire(import.meta.url).resolve(PUBLIC_SCHEMA_FILE);
    document = cachedYaml(file, (text) => yamlLoader()(text)) as OpenApiDocument;
  }
  return document;
}

/** js-yaml, loaded only when the schema is read from its YAML (not from the cached JSON). */
function yamlLoader(): typeof loadYaml {
  return (createRequire(import.meta.url)('js-yaml') as { load: typeof loadYaml }).load;
}

/** Every operation of `doc`, in the schema's order. */
export function operationsOf(doc: OpenApiDocument): ContractOperation[] {
  const operations: ContractOperation[] = [];
  for (const [pattern, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as { operationId?: string; tags?: string[] } | undefined;
      if (operation === undefined) continue;
      operations.push({
        method: method.toUpperCase(),
        pattern,
        operationId: operation.operationId ?? `${method} ${pattern}`,
        tag: operation.tags?.[0] ?? 'Other',
      });
    }
  }
  return operations;
}

/**
 * The public schema as the REST surface's contract: one per process, shared by every simulation.
 * Nothing is read until a request needs it; each operation's body validator is compiled on its
 * first body.
 */
export function publicContract(): PublicContract {
  contract ??= new PublicContract();
  return contract;
}

/** The public schema as a contract, read and compiled as it is first needed. */
export class PublicContract implements ApiContract {
  #operations: readonly ContractOperation[] | undefined;
  #validators: BodyValidators | undefined;

  get operations(): readonly ContractOperation[] {
    this.#operations ??= operationsOf(publicSchemaDocument());
    return this.#operations;
  }

  bodyProblem(method: string, pattern: string, body: unknown): string | undefined {
    this.#validators ??= new BodyValidators(publicSchemaDocument());
    return this.#validators.problem(method, pattern, body);
  }

  /**
   * Reads the schema and compiles the body validators of `routes` now rather than on their first
   * request (a server does it before it listens, so no client waits a second for it).
   */
  prepare(routes: readonly { readonly method: string; readonly pattern: string }[]): void {
    this.#validators ??= new BodyValidators(publicSchemaDocument());
    for (const route of routes) this.#validators.compile(route.method, route.pattern);
    void this.operations;
  }
}
