/**
 * The request the HTTP core reads: a Web `Request`, or an adapter's lighter object with its fields.
 */

/**
 * What the core reads of a request: a Web `Request` has it all; an adapter may pass a lighter
 * object with the same fields (node's adapter does, to skip building a `Request` per request).
 */
export interface RequestLike {
  readonly method: string;
  /** Absolute (`http://host/api/v2/…`); only its path and query are read. */
  readonly url: string;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
}
