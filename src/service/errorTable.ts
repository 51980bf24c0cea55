/**
 * The error table of the HTTP surface: every error code a response can carry, and its status. The
 * refusals of the model (`REJECTION_STATUS`) come first; the rest are the server's own. An error
 * answer names its code only; its status always comes from here.
 */
import { REJECTION_STATUS } from '../domain/rejection.js';

/** Every error code, with the HTTP status it is answered with. */
export const ERROR_STATUS = {
  ...REJECTION_STATUS,
  request_timeout: 408,
  still_busy: 409,
  /** A clock move stopped before it arrived (`DELETE /_sim/advance`, or its client went away). */
  stopped: 409,
  payload_too_large: 413,
  headers_too_large: 431,
  internal_error: 500,
  not_implemented: 501,
  service_unavailable: 503,
  insufficient_storage: 507,
} as const;

/** An error code of the HTTP surface (also the `code` of the error body). */
export type ErrorCode = keyof typeof ERROR_STATUS;

/** An answer of the HTTP core before it becomes a `Response`. */
export interface Answer {
  readonly status: number;
  /** JSON, or text when `contentType` says so; absent for 204 and streamed answers. */
  readonly body: unknown;
  readonly contentType?: string;
  /** Extra response headers (`retry-after`, `connection`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** A body sent as it is produced, chunk by chunk (a whole log), instead of `body`. */
  readonly stream?: Iterable<string>;
}

/** The answer for an error: its status from the table, `{ code, message }` as its body. */
export function errorAnswer(
  code: ErrorCode,
  message: string,
  headers?: Readonly<Record<string, string>>,
): Answer {
  return {
    status: ERROR_STATUS[code],
    body: { code, message },
    ...(headers === undefined ? {} : { headers }),
  };
}
