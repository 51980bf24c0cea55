/**
 * The error of a log asked for events it does not keep. It lives below the engine (which throws it)
 * so that every layer following a run, the projections and the testing toolkit too, refuses with it.
 */

/**
 * The log was asked for events it does not keep: a simulation whose log streams to a sink or is
 * not kept (`log: 'none'`) can answer only for its latest state.
 */
export class LogUnavailableError extends Error {
  override readonly name = 'LogUnavailableError';
}
