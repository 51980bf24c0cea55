/**
 * A simulation as a Web-standard fetch handler, in process: it answers a `Request` (URL path under
 * `/api/v2`, any origin) exactly as `computesim serve` answers it over a socket, through the same
 * HTTP core: the same routes, control routes under `/_sim/` (all but `reset`: a simulation cannot
 * replace itself), JSON errors, `Date` in virtual time. Keys are the simulation's own.
 */
import { HttpCore, type ControlKey } from './httpCore.js';
import type { ServedSimulation } from './servedSimulation.js';

/** A simulation that can be served in process: with the keys it was given. */
export interface FetchableSimulation extends ServedSimulation {
  readonly apiKeys: ReadonlyMap<string, ControlKey>;
}

const cores = new WeakMap<FetchableSimulation, HttpCore>();

/**
 * The fetch handler of `sim`: one HTTP core per simulation, so a clock move one request starts is
 * seen by the next.
 */
export function fetchHandler(sim: FetchableSimulation): (request: Request) => Promise<Response> {
  let core = cores.get(sim);
  if (core === undefined) cores.set(sim, (core = new HttpCore(sim, { keys: sim.apiKeys })));
  return core.fetch;
}
