/**
 * Errors the engine throws. They signal misuse or bugs (a run loop that would never end, time asked
 * to go backwards, a corrupt log); refusals of requests are values, not exceptions.
 */

/** A run loop hit its step guard: most likely a timer that re-arms itself at the same instant. */
export class StepLimitError extends Error {
  override readonly name = 'StepLimitError';
}

/** Virtual time was asked to move backwards, or to a time that is not a valid instant. */
export class ClockError extends Error {
  override readonly name = 'ClockError';
}

/** A subscriber of `events$` or `state$` tried to drive the simulation in the middle of a step. */
export class ReentrancyError extends Error {
  override readonly name = 'ReentrancyError';
}

/** A log that cannot be read or replayed; `line` is 1-based when the log came from JSON Lines. */
export class LogFormatError extends Error {
  override readonly name = 'LogFormatError';
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`);
  }
}

export { LogUnavailableError } from '../core/logUnavailableError.js';
