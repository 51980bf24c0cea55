/**
 * The shape of every answer of the REST surface, and the error body of every non-2xx answer.
 */
import { REJECTION_STATUS, type Rejection } from '../domain/rejection.js';

/** An HTTP-style response: a status and a JSON body (absent for 204). */
export interface ApiResponse<B = unknown> {
  readonly status: number;
  readonly body: B;
  /** Response headers the answer needs (`allow` on a 405); the HTTP server sends them. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The body of every error response. */
export interface ErrorBody {
  readonly code: string;
  readonly message: string;
  readonly request_id?: string;
}

/** The response for a refusal. */
export function errorResponse(rejection: Rejection, requestId?: string): ApiResponse<ErrorBody> {
  return {
    status: REJECTION_STATUS[rejection.kind],
    body: {
      code: rejection.kind,
      message: rejection.message,
      ...(requestId === undefined ? {} : { request_id: requestId }),
    },
  };
}
