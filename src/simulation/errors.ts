/**
 * The engine's errors a simulation's users meet, for the layers above it that do not reach into
 * the engine (the testing toolkit refuses a watch with the error the log itself throws).
 */
export { LogUnavailableError } from '../engine/errors.js';
