/**
 * `computesim/msw`: msw handlers that serve the Neon API and the serverless driver's SQL over HTTP
 * from a simulation, in process. msw (^2) is an optional peer dependency: install it to use this.
 */
export { neonHandlers, type NeonHandlers, type NeonHandlersOptions } from './neonHandlers.js';
