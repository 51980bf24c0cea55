/**
 * The shape of every answer of the REST surface, and the error body of every non-2xx answer.
 */
import type { ErrorCodes } from '../domain/profile.js';
import { REJECTION_STATUS, type Rejection } from '../domain/rejection.js';

/** An HTTP-style response: a status and a JSON body (absent for 204). */
export interface ApiResponse<B = unknown> {
  readonly status: number;
  readonly body: B;
  /** Extra response headers, lower-case (`retry-after` on a 429, `allow` on a 405); the HTTP server sends them. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The body of every error response: the public schema's `GeneralError` (`code`, `message`,
 * `request_id`), plus `detail` where computesim knows more than the real service's fixed message
 * says (which operation holds a lock); the schema allows further fields.
 */
export interface ErrorBody {
  readonly code: string;
  readonly message: string;
  readonly request_id?: string;
  readonly detail?: string;
}

/** The response for a refusal (its code is computesim's refusal kind until `asServiceError`). */
export function errorResponse(rejection: Rejection, requestId?: string): ApiResponse<ErrorBody> {
  return {
    status: REJECTION_STATUS[rejection.kind],
    body: {
      code: rejection.kind,
      message: rejection.message,
      ...(requestId === undefined ? {} : { request_id: requestId }),
      ...(rejection.detail === undefined ? {} : { detail: rejection.detail }),
    },
  };
}

/** The code of a 501 for a route of the public schema computesim does not simulate: kept, as the
 * real service has no such answer to imitate. */
const NOT_SIMULATED = 'not_implemented';

/**
 * An error body as the service answers it: with a `request_id` (the one it has, else `requestId`)
 * and, unless `codes` is `'computesim'`, the real service's `code` (the schema's default, an empty
 * string) instead of computesim's refusal kind (but a 501's `not_implemented`). Bodies that are not
 * error objects pass unchanged.
 */
export function asServiceError(body: unknown, requestId: string, codes: ErrorCodes): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const error = body as Partial<ErrorBody>;
  if (typeof error.message !== 'string') return body;
  return {
    ...error,
    code: codes === 'computesim' || error.code === NOT_SIMULATED ? (error.code ?? '') : '',
    request_id: error.request_id ?? requestId,
  };
}
