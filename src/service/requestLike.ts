/**
 * The request the HTTP core reads: a Web `Request`, or an adapter's lighter object with its fields;
 * and its path, read from its URL.
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
  /** A Web stream (a `Request`'s), or a body the adapter collects itself (cheaper per request). */
  readonly body: ReadableStream<Uint8Array> | CollectableBody | null;
  /** A `Request`'s signal: aborted, its client has gone (a clock move it started stops). */
  readonly signal?: AbortSignal;
}

/**
 * A body its adapter reads without a Web stream (building one costs more than the rest of a small
 * POST): `collect` gathers its chunks, or stops at `limit` bytes and discards the rest unread, so
 * the connection can still carry the refusal.
 */
export interface CollectableBody {
  collect(limit: number): Promise<CollectedBody>;
  /** Drops the body unread (a declared length over the limit is refused before reading). */
  discard(): void;
}

/** A collected body: its chunks in order, or why there are none. */
export type CollectedBody =
  | { readonly ok: true; readonly chunks: readonly Uint8Array[]; readonly size: number }
  | { readonly ok: false; readonly reason: 'too_large' | 'unreadable' };

/** The path and query of an absolute URL (`http://host/api/v2/x?y` → `/api/v2/x?y`). */
export function pathOf(url: string): string {
  const scheme = url.indexOf('://');
  const at = url.indexOf('/', scheme === -1 ? 0 : scheme + 3);
  if (at === -1) return '/';
  const hash = url.indexOf('#', at);
  return hash === -1 ? url.slice(at) : url.slice(at, hash);
}
