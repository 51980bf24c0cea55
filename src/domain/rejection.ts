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
  not_ready: 422,
  locked: 423,
  rate_limited: 429,
} as const;

/** A refusal kind, which is also the `code` of the error body. */
export type RejectionKind = keyof typeof REJECTION_STATUS;

/** An expected refusal of a command, as a value. */
export interface Rejection {
  readonly kind: RejectionKind;
  readonly message: string;
  /**
   * What computesim knows beyond the message (which operation holds a lock), kept out of `message`
   * where the real service's message is fixed text that clients match.
   */
  readonly detail?: string;
}

/** Builds a rejection. */
export function reject(kind: RejectionKind, message: string, detail?: string): Rejection {
  return detail === undefined ? { kind, message } : { kind, message, detail };
}

/** The real service's message of a 423 for conflicting operations; clients retry on this text. */
export const LOCKED_MESSAGE =
  'project already has running conflicting operations, scheduling of new ones is prohibited';

/** The real service's message of a 422 for a branch whose creation has not finished. */
export const BRANCH_NOT_READY_MESSAGE = 'branch not ready yet';

/**
 * A 404 as the real service writes it: `branch not found`, without the id (clients match the text);
 * which object was missing goes in `detail`.
 */
export function notFound(what: string, id: string): Rejection {
  return reject('not_found', `${what} not found`, `${what} ${JSON.stringify(id)}`);
}
