/**
 * Oracle: answers that refuse for now (423 locked, 422 not ready, 429 rate limited, a 5xx: see
 * `politeness.ts`) are retried, later, with backoff. The retry of a refused request is the next
 * request with the same method and path; it must come at least `minDelay` later, and at least
 * `Retry-After` later when the answer had one; each further retry of the same refused request waits
 * at least `growth` times as long as the one before (a wait set by `Retry-After` says nothing of
 * the client's own backoff). A client may give up once it has retried `giveUpAfter` times in a row.
 * It says nothing of a final refusal (a 400, a 404, a 409): a client may stop on those.
 */
import { formatDuration, parseDuration, type Duration } from '../../core/duration.js';
import type { RecordedRequest } from '../clientRecord.js';
import type { ClientOracle, OracleFinding } from './clientOracle.js';
import { isRetryable, POLITENESS } from './politeness.js';

/** Options of `retriesWithBackoff`. */
export interface BackoffOptions {
  /** Shortest wait before retrying a refusal without `Retry-After`. Default 1 s. */
  readonly minDelay?: Duration;
  /** Each wait at least this many times the one before, within one run of refusals. Default 1. */
  readonly growth?: number;
  /** Retries in a row after which giving up is fine. Default 3. */
  readonly giveUpAfter?: number;
}

/** Refused requests are retried, not given up, and not hammered. */
export function retriesWithBackoff(options: BackoffOptions = {}): ClientOracle {
  const minDelayMs = parseDuration(options.minDelay ?? POLITENESS.minRetryDelay);
  const growth = options.growth ?? 1;
  const giveUpAfter = options.giveUpAfter ?? POLITENESS.giveUpAfter;
  if (!(growth >= 1)) throw new RangeError('retriesWithBackoff: growth must be ≥ 1');
  const finding = (request: RecordedRequest, message: string): OracleFinding => ({
    oracle: 'retriesWithBackoff',
    at: request.at,
    requestIndex: request.index,
    message,
  });
  return {
    name: 'retriesWithBackoff',
    check(record) {
      const { requests } = record;
      const previousWait = new Map<string, number>();
      const retriesInARow = new Map<string, number>();
      for (const refused of requests) {
        if (!isRetryable(refused)) continue;
        const key = `${refused.method} ${refused.path}`;
        const retry = requests.find(
          (r) => r.index > refused.index && `${r.method} ${r.path}` === key,
        );
        if (retry === undefined && (retriesInARow.get(key) ?? 0) >= giveUpAfter) continue;
        if (retry === undefined)
          return finding(
            refused,
            `${key} got ${refused.status} and was never retried (the client gave up)`,
          );
        const waited = retry.at - refused.at;
        const retryAfterMs = (refused.retryAfterSeconds ?? 0) * 1000;
        const least = Math.max(retryAfterMs, minDelayMs, (previousWait.get(key) ?? 0) * growth);
        if (waited < least)
          return finding(
            retry,
            `${key} was retried ${formatDuration(waited)} after a ${refused.status}; it should wait at least ${formatDuration(least)}`,
          );
        if (isRetryable(retry)) {
          if (refused.retryAfterSeconds === undefined) previousWait.set(key, waited);
          retriesInARow.set(key, (retriesInARow.get(key) ?? 0) + 1);
        } else {
          previousWait.delete(key);
          retriesInARow.delete(key);
        }
      }
      return undefined;
    },
  };
}
