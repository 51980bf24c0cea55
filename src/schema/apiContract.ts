/**
 * What the REST surface needs of the public API schema: the schema's operations (so a route it declares but computesim does not simulate answers
 * 501 instead of 404) and a check of request bodies against the schema of their operation.
 */

/** One operation of the public schema. */
export interface ContractOperation {
  /** Upper case: `GET`, `POST`, `PUT`, `PATCH`, `DELETE`. */
  readonly method: string;
  /** Relative to `/api/v2`, with `{param}` segments, as the schema spells it. */
  readonly pattern: string;
  readonly operationId: string;
  /** The operation's first tag (`Branch`, `Endpoint`, …). */
  readonly tag: string;
}

/** The public schema as the REST surface uses it. */
export interface ApiContract {
  /** Every operation the schema declares. */
  readonly operations: readonly ContractOperation[];
  /**
   * Why `body` is not a request body the schema accepts for `method pattern` (a message that names
   * the field, such as `project.name: must be string`), or `undefined` when it is, or when the
   * operation declares no JSON body or is not in the schema.
   */
  bodyProblem(method: string, pattern: string, body: unknown): string | undefined;
}
