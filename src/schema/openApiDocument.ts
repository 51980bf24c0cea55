/** The parts of an OpenAPI document computesim reads (paths; the rest is reached by `$ref`). */

/** A parsed OpenAPI document. */
export interface OpenApiDocument {
  readonly paths: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly [key: string]: unknown;
}
