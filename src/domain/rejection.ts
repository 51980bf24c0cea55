/**
 * Why a command was refused, and how each kind of refusal maps to an HTTP-style status and code.
 */

/** The kinds of refusal, one per HTTP status the API uses. */
export const REJECTION_STATUS = {
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  locked: 423,
  rate_limited: 429,
} as const;

/** A refusal kind, which is also the `code` of the error body. */
export type RejectionKind = keyof typeof REJECTION_STATUS;

/** An expected refusal of a command, as a value. */
export interface Rejection {
  readonly kind: RejectionKind;
  readonly message: string;
}

/** Builds a rejection. */
export function reject(kind: RejectionKind, message: string): Rejection {
  return { kind, message };
}
