/**
 * Calling user code that must finish before the simulation moves on (scenario steps, study setup):
 * a returned promise would settle after the run had gone past it, so it is an error.
 */

/**
 * Calls `fn` and refuses a promise in return: `what` names it in the error.
 */
export function synchronously<A extends unknown[]>(
  what: string,
  fn: (...args: A) => unknown,
  ...args: A
): void {
  const result = fn(...args);
  if (typeof (result as { then?: unknown } | undefined)?.then === 'function') {
    (result as Promise<unknown>).then(undefined, () => undefined);
    throw new TypeError(`${what} returned a promise: it must be synchronous (no async)`);
  }
}
