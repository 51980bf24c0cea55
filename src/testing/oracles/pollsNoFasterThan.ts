/**
 * Oracle: the client polls no faster than an interval. Polling is asking the same GET again, with
 * no mutating request in between, after an answer that was not a refusal; each such repeat must
 * come at least `interval` after the one before. A GET repeated after a refusal (429, a 5xx…) is a
 * retry, which `retriesWithBackoff` judges (see `politeness.ts`).
 */
import { formatDuration, parseDuration, type Duration } from '../../core/duration.js';
import { isMutating } from '../clientRecord.js';
import type { ClientOracle } from './clientOracle.js';
import { isRetryable, POLITENESS } from './politeness.js';

/** Repeated GETs of one path are at least `interval` apart (default 5 s, the spec's polling rule). */
export function pollsNoFasterThan(interval: Duration = POLITENESS.pollInterval): ClientOracle {
  const intervalMs = parseDuration(interval);
  return {
    name: 'pollsNoFasterThan',
    check(record) {
      /** When each GET was last answered with something other than a refusal. */
      const lastAnswered = new Map<string, number>();
      /** GETs whose last answer was a refusal: their next ask is a retry. */
      const retrying = new Set<string>();
      for (const request of record.requests) {
        if (isMutating(request)) {
          lastAnswered.clear();
          retrying.clear();
          continue;
        }
        const key = `${request.path}?${request.query}`;
        const before = lastAnswered.get(key);
        if (!retrying.has(key) && before !== undefined && request.at - before < intervalMs)
          return {
            oracle: 'pollsNoFasterThan',
            at: request.at,
            requestIndex: request.index,
            message: `GET ${request.path} polled again after ${formatDuration(request.at - before)}, faster than every ${formatDuration(intervalMs)}`,
          };
        if (isRetryable(request)) retrying.add(key);
        else {
          retrying.delete(key);
          lastAnswered.set(key, request.at);
        }
      }
      return undefined;
    },
  };
}
