/**
 * The request ids the HTTP core draws for requests that sent no `X-Request-ID` (an error body
 * carries one, as the real service's does): deterministic, keyed by the log's position and a count.
 */
import { requestId } from '../core/requestIds.js';
import type { ServedSimulation } from './servedSimulation.js';

/** Draws the request ids of one core: each new, and the same again for the same seed and history. */
export class HttpRequestIds {
  #drawn = 0;

  /** A new request id for a request to `sim`. */
  next(sim: ServedSimulation): string {
    return requestId(sim.seed, 'http-request-ids', sim.log.length, this.#drawn++);
  }
}
