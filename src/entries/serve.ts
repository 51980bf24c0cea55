/**
 * `computesim/serve`: a simulation served to real clients. `SimServer` is `computesim serve` as a
 * library (the HTTP API, control routes, the dashboard, SQL over HTTP, WebSocket upgrades and the
 * Postgres front on sockets you choose); `fetchHandler` answers Web `Request`s in process, through
 * the same HTTP core, with no socket.
 */
export { fetchHandler } from '../service/fetchHandler.js';
export type { AnsweredRequest } from '../service/httpCore.js';
export type { HttpContext } from '../service/httpContext.js';
export type { SliceStop } from '../service/slicedRun.js';
export { parseClockMode, type ClockMode } from '../service/clockMode.js';
export { API_RATE_LIMITS, type RateLimits } from '../api/rateLimiter.js';
export {
  SimServer,
  PG_ENGINES,
  type PostgresEngine,
  type ServedKey,
  type SimServerOptions,
} from '../http/simServer.js';
export type { PostgresFrontOptions } from '../pg/postgresFront.js';
export { StateFile } from '../http/stateFile.js';
