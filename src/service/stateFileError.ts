/**
 * The error a state file throws when it cannot take a change. Apart from the file itself, so the
 * HTTP core can tell it apart (503) without importing anything of node.
 */

/** A state file could not be written: the change it was to hold is not durable. */
export class StateFileError extends Error {
  override readonly name = 'StateFileError';
}
