/**
 * Oracle: the client polls no faster than an interval. Polling is asking the same GET again with no
 * mutating request in between; each repeat must come at least `intervalMs` after the one before.
 */
import { formatDuration, parseDuration, type Duration } from '../../core/duration.js';
import { isMutating } from '../clientRecord.js';
import type { ClientOracle } from './clientOracle.js';

/** Repeated GETs of one path are at least `interval` apart (default 5 s, the spec's polling rule). */
export function pollsNoFasterThan(interval: Duration = '5s'): ClientOracle {
  const intervalMs = parseDuration(interval);
  return {
    name: 'pollsNoFasterThan',
    check(record) {
      const lastAsked = new Map<string, number>();
      for (const request of record.requests) {
        if (isMutating(request)) {
          lastAsked.clear();
          continue;
        }
        const key = `${request.path}?${request.query}`;
        const before = lastAsked.get(key);
        if (before !== undefined && request.at - before < intervalMs)
          return {
            oracle: 'pollsNoFasterThan',
            at: request.at,
            requestIndex: request.index,
            message: `GET ${request.path} polled again after ${formatDuration(request.at - before)}, faster than every ${formatDuration(intervalMs)}`,
          };
        lastAsked.set(key, request.at);
      }
      return undefined;
    },
  };
}
