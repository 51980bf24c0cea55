/**
 * One model of a polite client, shared by the oracles that judge its timing. An answer that refuses
 * for now (423 locked, 422 not ready, 429 rate limited, a 5xx) asks for a **retry**: the same
 * request again, after `Retry-After` when the answer has one, and backing off
 * (`retriesWithBackoff`). Asking the same GET again after an answer that was not a refusal is a
 * **poll**, at most every 5 s (`pollsNoFasterThan`). A retry is never judged as a poll, nor a poll
 * as a retry.
 */
import type { RecordedRequest } from '../clientRecord.js';

/** The shortest wait before a retry, and the polling interval, unless an oracle is told otherwise. */
export const POLITENESS = {
  /** The spec's polling rule: every 5 s. */
  pollInterval: '5s',
  /** The least wait before retrying a refusal without `Retry-After`. */
  minRetryDelay: '1s',
  /** Retries in a row of one request after which a client may give up. */
  giveUpAfter: 3,
} as const;

/** Whether an answer refuses for now and asks to be retried (not a final answer). */
export function isRetryable(request: Pick<RecordedRequest, 'status' | 'response'>): boolean {
  const { status } = request;
  if (status === 422) return isNotReady(request.response);
  return status === 423 || status === 429 || (status >= 500 && status <= 599);
}

/** A 422 that says the branch is not ready yet (the real service's test client retries it). */
function isNotReady(response: unknown): boolean {
  const message = (response as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' && message.includes('not ready');
}
