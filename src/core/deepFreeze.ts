/**
 * Freezing plain data in place, all the way down: for values shared by many holders (operation
 * effects, decoded log values), which must never change once shared.
 */

/** Freezes `value` and everything it holds; returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
