/**
 * What the HTTP core knows of the connection a request came on, beside the request itself: the
 * client's address and whether the client has gone.
 */

/** What the core knows of the connection a request came on (like hono's env / connection info). */
export interface HttpContext {
  /** The client's address: the rate limiter's caller for keys the server does not know. */
  readonly clientAddress?: string;
  /**
   * Whether the client has gone (its connection closed before the answer): a clock move it started
   * stops at its next slice, as `DELETE /_sim/advance` stops one.
   */
  readonly gone?: () => boolean;
}

/** `context`, told by a `Request`'s signal whether its client has gone, unless it knows already. */
export function withSignal(context: HttpContext, signal: AbortSignal | undefined): HttpContext {
  if (context.gone !== undefined || signal === undefined) return context;
  return { ...context, gone: () => signal.aborted };
}
